import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import type { Database } from '../../../../src-server/db/connection';
import { cookieBrowser, cookieFrom, type CookieBrowser } from '../../helpers/cookie-browser';

/** Shared steps of the sign-in tests: demo bookings, requests with a cookie jar, and DB peeks. */

/** Demo bookings (resources/demo-provider/appointments.json). */
export const LIAM = {
  bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw',
  dateOfBirth: '1991-03-14',
  contactNumber: '0491570006',
  email: 'liam.example@example.com',
};
export const AMELIA = {
  bookingKey: 'RTZZ7AsePVS1c6abT-l4BA',
  dateOfBirth: '1968-11-02',
  contactNumber: '0491570156',
  email: 'amelia.sample@example.com',
};
export const GRACE = {
  bookingKey: 'mNp2p1IOmqpDiRsoCT3WpA',
  dateOfBirth: '1985-07-21',
  contactNumber: '0491570157',
  email: 'grace.demo@example.com',
};
export const HARPER = {
  bookingKey: '7H3MErioM1s418Nitkng_A',
  dateOfBirth: '1972-08-18',
  contactNumber: '0491571266',
  email: 'harper.sample@example.com',
};
export const EVELYN = {
  bookingKey: 'jlx0B3-koE9P5H7Alnmy8A',
  dateOfBirth: '1951-02-11',
  contactNumber: '0491571491',
  email: 'evelyn.example@example.com',
};
export const CHLOE = {
  bookingKey: 'im5aSNG4BCr1GBpWEmFTjQ',
  dateOfBirth: '1983-06-29',
  contactNumber: '0491572549',
  email: 'chloe.specimen@example.com',
};
export const NOAH = {
  bookingKey: 'LLVul4grjGhwX2gNEagIbw',
  dateOfBirth: '1974-12-05',
  contactNumber: '0491570313',
  email: 'noah.specimen@example.com',
};
export const ZOE = {
  bookingKey: 'tbwfMKoY8baWy3_RDUOeKQ',
  dateOfBirth: '1949-04-26',
  contactNumber: '0491570737',
  email: 'zoe.fictitious@example.com',
};
export const JACK = {
  bookingKey: 'r2gio7z_AuIa9srd_WgtNw',
  dateOfBirth: '1958-05-17',
  contactNumber: '0491570110',
  email: 'jack.placeholder@example.com',
};
export const HENRY = {
  bookingKey: 'nM6PKfbEQE9NK0sk52Tm0g',
  dateOfBirth: '1962-10-03',
  contactNumber: '0491571804',
  email: 'henry.demo@example.com',
};
/** A well-formed key no booking has. */
export const UNKNOWN_KEY = 'AAAAAAAAAAAAAAAAAAAAAA';

/** A distinct client address per test, so the per-address limit of one test does not leak into another. */
let nextAddress = 10;
export function newAddress(): string {
  nextAddress += 1;
  return `10.0.${Math.floor(nextAddress / 250)}.${nextAddress % 250}`;
}

/** The session cookie's value a response set, or null. */
export function sessionTokenFrom(response: LightMyRequestResponse): string | null {
  return cookieFrom(response, PATIENT_SESSION_COOKIE);
}

export type Client = CookieBrowser;

/** A browser: one client address and the patient session cookie it was last given. */
export function client(app: FastifyInstance, address: string = newAddress()): Client {
  return cookieBrowser(app, PATIENT_SESSION_COOKIE, address);
}

export type Person = typeof LIAM;

export function authenticate(
  browser: Client,
  person: Pick<Person, 'bookingKey' | 'dateOfBirth'>,
  extra: object = {},
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return browser.request(
    'POST',
    '/api/patient-access/authenticate',
    { bookingKey: person.bookingKey, type: 'APPOINTMENT', dateOfBirth: person.dateOfBirth, ...extra },
    headers,
  );
}

/** The code in the newest one-time-password e-mail queued for this address (the outbox row is the mail). */
export async function mailedCode(db: Database, email: string): Promise<string> {
  const rows = await db.query<{ text_body: string }>(
    `select text_body from outbox_mail where recipient = $1 and kind = 'otp_code' order by id desc limit 1`,
    [email],
  );
  const code = /\b(\d{6})\b/.exec(rows[0]?.text_body ?? '')?.[1];
  if (code === undefined) throw new Error(`no OTP mail for ${email}`);
  return code;
}

/** A code that is not `code`. */
export const wrongCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

export const sendCode = (browser: Client, channel: 'EMAIL' | 'SMS' = 'EMAIL') =>
  browser.request('POST', '/api/patient-access/otp', { channel });

export const verifyCode = (browser: Client, code: string, headers: Record<string, string> = {}) =>
  browser.request('POST', '/api/patient-access/otp/verify', { code }, headers);

/** A full APPOINTMENT sign-in as `browser` (otpRequired on): date of birth, then the mailed code; each step must pass. */
export async function signInWithCode(db: Database, browser: Client, person: Person): Promise<Client> {
  expect((await authenticate(browser, person)).statusCode).toBe(200);
  expect((await sendCode(browser)).statusCode).toBe(202);
  expect((await verifyCode(browser, await mailedCode(db, person.email))).statusCode).toBe(200);
  return browser;
}

export function sessionCheck(browser: Client, bookingKey: string, type = 'APPOINTMENT'): Promise<LightMyRequestResponse> {
  return browser.request('GET', `/api/patient-access/session?bookingKey=${encodeURIComponent(bookingKey)}&type=${type}`);
}

export async function setOtpRequired(db: Database, required: boolean): Promise<void> {
  await db.query(`update provider set app_config = jsonb_set(app_config, '{otpRequired}', $1::jsonb)`, [JSON.stringify(required)]);
}

export async function auditActions(
  db: Database,
  since = 0,
): Promise<Array<{ id: number; action: string; subject_id: string | null; details: Record<string, unknown> }>> {
  return db.query(`select id::int as id, action, subject_id, details from audit_log where id > $1 and actor = 'patient' order by id`, [
    since,
  ]);
}

export async function lastAuditId(db: Database): Promise<number> {
  const rows = await db.query<{ id: number }>(`select coalesce(max(id), 0)::int as id from audit_log`);
  return rows[0]?.id ?? 0;
}

/** Adds a booking request for a new patient (the demo has none); answers its key. */
export async function insertBookingRequest(
  db: Database,
  patient: { dateOfBirth: string; email: string; contactNumber: string },
  bookingKey: string,
): Promise<void> {
  const [row] = await db.query<{ id: string }>(
    `insert into patient (first_name, last_name, date_of_birth, email, contact_number) values ('Ruby', 'Request', $1, $2, $3) returning id::text as id`,
    [patient.dateOfBirth, patient.email, patient.contactNumber],
  );
  await db.query(
    `insert into booking_request (slug, booking_key, exam_id, patient_id)
     select $1, $2, id, $3 from exam where enquiry_only order by slug limit 1`,
    [`${bookingKey}-slug`, bookingKey, row?.id],
  );
}
