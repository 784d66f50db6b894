import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AvailabilityResponse, PatientDetails, Slot } from '@contract/api/booking';
import type { QuestionnaireListResponse } from '@contract/api/questionnaires';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../src-server/platform/plugins/csrf-guard';
import { requestedBackends } from '../helpers/database';
import { PASSING_ANSWERS, VALID_MEDICARE } from '../modules/booking/booking-test-kit';

/**
 * HTTP calls of the two-servers-behind-nginx test (cluster.test.ts) over real sockets, to nginx
 * or to one server directly. A call names its client address in X-Forwarded-For: nginx appends
 * its own peer (127.0.0.1, this process), and the servers trust 127.0.0.1 (TRUST_PROXY), so
 * each call counts as its client's, through nginx or not.
 */

export interface Answer {
  status: number;
  body: string;
  json<T = unknown>(): T;
  cookies: Map<string, string>;
}

export interface CallOptions {
  body?: unknown;
  /** The client address the servers should see. */
  client?: string;
  headers?: Record<string, string>;
  cookies?: Map<string, string>;
}

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.client !== undefined) headers['x-forwarded-for'] = options.client;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookies !== undefined && options.cookies.size > 0) {
    headers.cookie = [...options.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await response.text();
  const cookies = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const match = /^([^=]+)=([^;]*)/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) cookies.set(match[1], match[2]);
  }
  return { status: response.status, body, json: <T>() => JSON.parse(body) as T, cookies };
}

let clients = 0;
/** A client address of its own (TEST-NET-2, 198.51.100.0/24, then onwards), so no limit counts two tests' calls together. */
export function newClient(): string {
  clients += 1;
  return `198.51.${100 + Math.floor(clients / 250)}.${(clients % 250) + 1}`;
}

let patients = 0;
/** A valid patient with an e-mail and phone number of its own. */
export function newPatient(tag: string): PatientDetails {
  patients += 1;
  return {
    title: 'Ms',
    firstName: 'Ada',
    lastName: 'Cluster',
    dateOfBirth: '1985-12-10',
    email: `${tag}-${patients}-${randomBytes(3).toString('hex')}@example.com`,
    contactNumber: `04${String(20_000_000 + patients).padStart(8, '0')}`,
    postalCode: '2150',
    medicareNumber: VALID_MEDICARE,
  };
}

/** The local date `days` after today in Sydney (the demo clinics' zone). */
export function sydneyDateIn(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Free starts for the exam at the clinic over `days` days from `from`. */
export async function freeSlots(base: string, exam: string, clinic: string, from: string, days = 7): Promise<Slot[]> {
  const answer = await call(base, 'GET', `/api/booking/availability?exams=${exam}&clinics=${clinic}&from=${from}&days=${days}`);
  if (answer.status !== 200) throw new Error(`availability: ${answer.status} ${answer.body}`);
  return answer.json<AvailabilityResponse>().clinics.flatMap((entry) => entry.days.flatMap((day) => day.slots));
}

/** A temporary questionnaire key with the exam's questionnaires answered, as the web's booking flow makes it. */
export async function screenedKey(base: string, exams: readonly string[], client: string): Promise<string> {
  const created = await call(base, 'POST', '/api/questionnaires/booking-keys', { client });
  if (created.status !== 201) throw new Error(`booking key: ${created.status} ${created.body}`);
  const bookingKey = created.json<{ bookingKey: string }>().bookingKey;
  const list = await call(base, 'GET', `/api/questionnaires?bookingKey=${bookingKey}&exams=${exams.join(',')}`, { client });
  if (list.status !== 200) throw new Error(`questionnaires: ${list.status} ${list.body}`);
  for (const item of list.json<QuestionnaireListResponse>().questionnaires) {
    const saved = await call(base, 'POST', '/api/questionnaires/temporary-answers', {
      client,
      body: {
        bookingKey,
        questionnaireId: item.questionnaire.id,
        ...(item.examSlug === null ? {} : { examSlug: item.examSlug }),
        questionnaireResult: PASSING_ANSWERS[item.questionnaire.slug],
      },
    });
    if (saved.status !== 200) throw new Error(`answers to ${item.questionnaire.slug}: ${saved.status} ${saved.body}`);
  }
  return bookingKey;
}

export interface BookingAttempt {
  exam: string;
  clinicSlug: string;
  startsAt: string;
  patient: PatientDetails;
  client: string;
  idempotencyKey: string;
  questionnaireKey: string;
}

/** A booking ready to send: its questionnaires answered, its idempotency key chosen. */
export async function prepareBooking(
  base: string,
  slot: { exam: string; clinicSlug: string; startsAt: string },
  tag: string,
): Promise<BookingAttempt> {
  const client = newClient();
  return {
    ...slot,
    patient: newPatient(tag),
    client,
    idempotencyKey: randomUUID(),
    questionnaireKey: await screenedKey(base, [slot.exam], client),
  };
}

/** POST /api/booking/appointments for the attempt (the same body and Idempotency-Key every time it is sent). */
export function sendBooking(base: string, attempt: BookingAttempt): Promise<Answer> {
  return call(base, 'POST', '/api/booking/appointments', {
    client: attempt.client,
    headers: { 'idempotency-key': attempt.idempotencyKey },
    body: {
      exams: [attempt.exam],
      clinicSlug: attempt.clinicSlug,
      startsAt: attempt.startsAt,
      patient: attempt.patient,
      questionnaireKey: attempt.questionnaireKey,
    },
  });
}

/** Runs `fn` on the admin database of `adminUrl`. */
async function onAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface ClusterDatabase {
  url: string;
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/**
 * The PostgreSQL the cluster test uses: DATABASE_URL's server, or the machine's own on
 * 127.0.0.1:5432; null (with the reason) when neither answers or TEST_BACKENDS leaves PostgreSQL out.
 */
export async function postgresAdminUrl(): Promise<{ url: string } | { reason: string }> {
  const wanted = requestedBackends();
  if (wanted && !wanted.includes('postgres')) {
    return { reason: `TEST_BACKENDS=${wanted.join(',')} leaves PostgreSQL out (the PostgreSQL run covers it)` };
  }
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    await onAdmin(url, 'select 1');
    return { url };
  } catch (error) {
    return {
      reason: `no PostgreSQL at ${process.env.DATABASE_URL ? 'DATABASE_URL' : '127.0.0.1:5432'} (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** A new empty database portal_test_<random> on that server, dropped by drop(). */
export async function createClusterDatabase(adminUrl: string): Promise<ClusterDatabase> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    async query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
      return (await pool.query<T>(sql, values)).rows;
    },
    async drop() {
      await pool.end();
      await onAdmin(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
