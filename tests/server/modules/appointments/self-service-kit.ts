import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { AppointmentSummarySchema, type AppointmentSummary } from '@contract/api/appointments';
import { PATIENT_SESSION_COOKIE, type SignInType } from '@contract/api/patient-access';
import type { Database } from '../../../../src-server/db/connection';
import { book, patient, slotsOn } from '../booking/booking-test-kit';
import { client, newAddress, type Client } from '../patient-access/sign-in-kit';

/**
 * Shared steps of the self-service tests: real bookings made through the booking API, real
 * sign-in through POST /api/patient-access/authenticate (with the provider's otpRequired off,
 * except where a test turns it on), and a browser that sends its session cookie.
 */

export interface Signed {
  browser: Client;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: object, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  put(url: string, payload?: object): Promise<LightMyRequestResponse>;
}

/** The header the web client sends on every API call (the CSRF guard's proof of a same-origin script). */
export const CLIENT_HEADERS = { 'x-requested-with': 'XMLHttpRequest' };

function withCookie(browser: Client, headers: Record<string, string> = {}): Record<string, string> {
  const sent = { ...CLIENT_HEADERS, ...headers };
  return browser.token === null ? sent : { ...sent, cookie: `${PATIENT_SESSION_COOKIE}=${browser.token}` };
}

/** A browser with a fully authenticated session for the booking (otpRequired must be off). */
export async function signIn(
  app: FastifyInstance,
  bookingKey: string,
  dateOfBirth: string,
  type: SignInType = 'APPOINTMENT',
): Promise<Signed> {
  const browser = client(app, newAddress());
  const response = await browser.request('POST', '/api/patient-access/authenticate', { bookingKey, type, dateOfBirth });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ otpRequired: boolean }>().otpRequired).toBe(false);
  return signedAs(app, browser);
}

export function signedAs(app: FastifyInstance, browser: Client): Signed {
  return {
    browser,
    get: (url) => app.inject({ method: 'GET', url, remoteAddress: browser.address, headers: withCookie(browser) }),
    post: (url, payload, headers) =>
      app.inject({
        method: 'POST',
        url,
        remoteAddress: browser.address,
        headers: withCookie(browser, headers),
        ...(payload === undefined ? {} : { payload }),
      }),
    put: (url, payload) =>
      app.inject({
        method: 'PUT',
        url,
        remoteAddress: browser.address,
        headers: withCookie(browser),
        ...(payload === undefined ? {} : { payload }),
      }),
  };
}

export interface Booked {
  bookingKey: string;
  dateOfBirth: string;
  startsAt: string;
}

/**
 * Books exams through the real booking API at the given slot index of a local date (the
 * availability answer decides which times exist). Each booking gets its own date of birth.
 */
let nextDob = 1;
export async function bookThrough(
  app: FastifyInstance,
  options: { exams: string; clinic: string; date: string; slot?: number; startsAt?: string; walkInExam?: object },
): Promise<Booked> {
  let startsAt = options.startsAt;
  if (startsAt === undefined) {
    const slots = await slotsOn(app, options.exams, options.clinic, options.date);
    startsAt = slots[options.slot ?? 0]?.startsAt;
    if (startsAt === undefined) throw new Error(`no slot ${options.slot ?? 0} on ${options.date} at ${options.clinic}`);
  }
  nextDob += 1;
  const dateOfBirth = `1970-01-${String((nextDob % 28) + 1).padStart(2, '0')}`;
  const response = await book(app, {
    exams: options.exams.split(','),
    clinicSlug: options.clinic,
    startsAt,
    patient: patient({ dateOfBirth, email: `patient${nextDob}@example.com` }),
    ...(options.walkInExam === undefined ? {} : { walkInExam: options.walkInExam }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return { bookingKey: response.json<{ bookingKey: string }>().bookingKey, dateOfBirth, startsAt };
}

export function reschedule(signed: Signed, bookingKey: string, body: object, key: string = randomUUID()): Promise<LightMyRequestResponse> {
  return signed.post(`/api/appointments/${bookingKey}/reschedule`, body, { 'idempotency-key': key });
}

/** Statuses and start instants of a booking's rows, in time order. */
/** GET /api/appointments/:key as the signed-in patient; must answer 200. */
export async function summaryOf(signed: Signed, bookingKey: string): Promise<AppointmentSummary> {
  const response = await signed.get(`/api/appointments/${bookingKey}`);
  expect(response.statusCode, response.body).toBe(200);
  return AppointmentSummarySchema.parse(response.json());
}

/** Whether the booking API offers this start time (Sydney daylight time, UTC+11) for the exams at the clinic. */
export async function isFree(app: FastifyInstance, exams: string, clinic: string, startsAt: string): Promise<boolean> {
  const date = new Date(new Date(startsAt).getTime() + 11 * 60 * 60_000).toISOString().slice(0, 10);
  return (await slotsOn(app, exams, clinic, date)).some((slot) => slot.startsAt === startsAt);
}

export async function rowsOf(db: Database, bookingKey: string): Promise<Array<{ status: string; starts_at: string }>> {
  const rows = await db.query<{ status: string; starts_ms: number }>(
    `select status, extract(epoch from lower(during))::float8 * 1000 as starts_ms from appointment where booking_key = $1 order by lower(during), created_at`,
    [bookingKey],
  );
  return rows.map((row) => ({ status: row.status, starts_at: new Date(row.starts_ms).toISOString() }));
}

/** The e-mail address the booking's patient gave ('' when it has none). */
export async function patientEmailOf(db: Database, bookingKey: string): Promise<string> {
  const [row] = await db.query<{ email: string }>(
    `select p.email from appointment a join patient p on p.id = a.patient_id where a.booking_key = $1 limit 1`,
    [bookingKey],
  );
  return row?.email ?? '';
}

export async function auditSince(
  db: Database,
  since: number,
): Promise<Array<{ actor: string; action: string; details: Record<string, unknown> }>> {
  return db.query(
    `select actor, action, details from audit_log where id > $1 and action not like 'patient_sign_in%' and action not like 'patient_session%' order by id`,
    [since],
  );
}
