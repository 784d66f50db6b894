import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AvailabilityResponse, PatientDetails, Slot } from '@contract/api/booking';
import type { QuestionnaireListResponse } from '@contract/api/questionnaires';
import type { Database } from '../../../../src-server/db/connection';
import { zonedTimeToInstant } from '../../../../src-server/platform/time-zone';

/** Shared pieces of the booking tests: a valid patient, calls, and the database audits. */

/** 2123456701 passes the Medicare check digit (weights 1,3,7,9,1,3,7,9 over the first 8). */
export const VALID_MEDICARE = '2123456701';

let patientCount = 0;

/**
 * A valid patient. Each call has an e-mail and phone number of its own (as different patients
 * have), so the booking limits per contact (docs/rules/booking.md#booking-limits) count only
 * what a test gives the same contact on purpose.
 */
export function patient(overrides: Partial<PatientDetails> = {}): PatientDetails {
  patientCount += 1;
  return {
    title: 'Ms',
    firstName: 'Ada',
    lastName: "O'Neill-Lovelace",
    dateOfBirth: '1985-12-10',
    email: `ada.${patientCount}@example.com`,
    contactNumber: `04${String(patientCount).padStart(8, '0')}`,
    postalCode: '2150',
    medicareNumber: VALID_MEDICARE,
    ...overrides,
  };
}

/** The instant of a wall-clock time at a Sydney clinic. */
export function sydney(date: string, time: string): string {
  return zonedTimeToInstant(date, time, 'Australia/Sydney').toISOString();
}

export async function availability(
  app: FastifyInstance,
  query: { exams: string; clinics: string; from: string; days?: number },
): Promise<AvailabilityResponse> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/booking/availability?exams=${query.exams}&clinics=${query.clinics}&from=${query.from}&days=${query.days ?? 1}`,
  });
  if (response.statusCode !== 200) throw new Error(`availability answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** Slots of one clinic and date. */
export async function slotsOn(app: FastifyInstance, exams: string, clinic: string, date: string): Promise<Slot[]> {
  const body = await availability(app, { exams, clinics: clinic, from: date });
  return body.clinics[0]?.days[0]?.slots ?? [];
}

let addressCount = 0;

/**
 * A client address no other call of this process used: calls that do not say otherwise come
 * from a device of their own, as different patients' do, so the booking limits per client
 * address (docs/rules/booking.md#booking-limits) only count what a test means them to count.
 */
export function newClientAddress(): string {
  addressCount += 1;
  return `10.${(addressCount >> 16) & 255}.${(addressCount >> 8) & 255}.${addressCount & 255}`;
}

export interface ClientOptions {
  /** The client address (default: a new one, newClientAddress). */
  remoteAddress?: string;
  /** More request headers (an X-Captcha answer). */
  headers?: Record<string, string>;
}

/** Answers to the demo provider's screening questionnaires that let a booking go ahead, by questionnaire slug. */
export const PASSING_ANSWERS: Readonly<Record<string, object>> = {
  'mri-safety-screening': { pacemaker: 'no', hasImplants: false, metalInEyes: 'no', claustrophobia: false, weightKg: 82 },
  'ct-contrast': { previousReaction: 'no', kidneyDisease: 'no', onMetformin: false, allergies: ['none'] },
  'xray-pregnancy-check': { pregnant: 'no' },
};

/**
 * Answers every questionnaire these exams ask for under a temporary questionnaire key, as the
 * web's booking flow does (docs/rules/questionnaires.md#required-answers): `answers` by
 * questionnaire slug, PASSING_ANSWERS for the rest. Throws when a questionnaire has neither.
 */
export async function answerScreening(
  app: FastifyInstance,
  bookingKey: string,
  exams: readonly string[],
  answers: Readonly<Record<string, object>> = {},
): Promise<void> {
  const remoteAddress = newClientAddress();
  const list = await app.inject({
    method: 'GET',
    url: `/api/questionnaires?bookingKey=${bookingKey}&exams=${exams.join(',')}`,
    remoteAddress,
  });
  // Exams the questionnaires do not know: the booking itself answers what is wrong with them.
  if (list.statusCode !== 200) return;
  for (const item of list.json<QuestionnaireListResponse>().questionnaires) {
    const { slug, id } = item.questionnaire;
    const result = answers[slug] ?? PASSING_ANSWERS[slug];
    if (result === undefined) throw new Error(`answerScreening has no answers for the questionnaire '${slug}'`);
    const saved = await app.inject({
      method: 'POST',
      url: '/api/questionnaires/temporary-answers',
      remoteAddress,
      payload: {
        bookingKey,
        questionnaireId: id,
        ...(item.examSlug === null ? {} : { examSlug: item.examSlug }),
        questionnaireResult: result,
      },
    });
    if (saved.statusCode !== 200) throw new Error(`answer to ${slug}: ${saved.statusCode} ${saved.body}`);
  }
}

/** A new temporary questionnaire key with the exams' questionnaires answered (answerScreening). */
export async function screenedKey(
  app: FastifyInstance,
  exams: readonly string[],
  answers: Readonly<Record<string, object>> = {},
): Promise<string> {
  const created = await app.inject({ method: 'POST', url: '/api/questionnaires/booking-keys', remoteAddress: newClientAddress() });
  if (created.statusCode !== 201) throw new Error(`booking key: ${created.statusCode} ${created.body}`);
  const bookingKey = created.json<{ bookingKey: string }>().bookingKey;
  await answerScreening(app, bookingKey, exams, answers);
  return bookingKey;
}

/** One screened key per server and idempotency key, so a retried or concurrent call sends the same body. */
const screenedKeys = new WeakMap<FastifyInstance, Map<string, Promise<string>>>();

/** The body with a screened questionnaireKey added, unless it names one (`questionnaireKey: undefined` sends none). */
async function screened(app: FastifyInstance, body: Record<string, unknown>, idempotencyKey: string): Promise<Record<string, unknown>> {
  if ('questionnaireKey' in body || !Array.isArray(body.exams)) return body;
  const keys = screenedKeys.get(app) ?? new Map<string, Promise<string>>();
  screenedKeys.set(app, keys);
  const questionnaireKey = keys.get(idempotencyKey) ?? screenedKey(app, body.exams as string[]);
  keys.set(idempotencyKey, questionnaireKey);
  return { ...body, questionnaireKey: await questionnaireKey };
}

/** A POST from a client of its own unless `options` names one; `options.headers` go on top of `headers`. */
function post(
  app: FastifyInstance,
  url: string,
  payload: Record<string, unknown>,
  options: ClientOptions,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...options.headers },
    remoteAddress: options.remoteAddress ?? newClientAddress(),
    payload,
  });
}

/** A screened (see screened), idempotent POST. */
async function screenedPost(
  app: FastifyInstance,
  url: string,
  body: Record<string, unknown>,
  key: string,
  options: ClientOptions,
): Promise<LightMyRequestResponse> {
  return post(app, url, await screened(app, body, key), options, { 'idempotency-key': key });
}

/**
 * Books as the web's booking flow does: when the body names no `questionnaireKey` at all, the
 * exams' questionnaires are answered first (screenedKey). A test that means to send none says
 * `questionnaireKey: undefined`.
 */
export function book(
  app: FastifyInstance,
  body: Record<string, unknown>,
  key: string = randomUUID(),
  options: ClientOptions = {},
): Promise<LightMyRequestResponse> {
  return screenedPost(app, '/api/booking/appointments', body, key, options);
}

export function hold(app: FastifyInstance, body: Record<string, unknown>, options: ClientOptions = {}): Promise<LightMyRequestResponse> {
  return post(app, '/api/booking/holds', body, options);
}

/** Asks for booking requests as the web's flow does: screened first unless the body names a `questionnaireKey` (see book). */
export function requestBooking(
  app: FastifyInstance,
  body: Record<string, unknown>,
  key: string = randomUUID(),
  options: ClientOptions = {},
): Promise<LightMyRequestResponse> {
  return screenedPost(app, '/api/booking/booking-requests', body, key, options);
}

/** Pairs of live appointments (holds included) on one resource whose times overlap: must be 0. */
export async function overlaps(db: Database): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `select count(*)::int as count
       from appointment a join appointment b on a.resource_id = b.resource_id and a.id < b.id and a.during && b.during
      where a.status in ('HELD', 'BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN')
        and b.status in ('HELD', 'BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN')`,
  );
  return rows[0]?.count ?? -1;
}

export async function countRows(db: Database, table: string): Promise<number> {
  const rows = await db.query<{ count: number }>(`select count(*)::int as count from ${table}`);
  return rows[0]?.count ?? -1;
}
