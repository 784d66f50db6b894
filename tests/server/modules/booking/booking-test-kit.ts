import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AvailabilityResponse, PatientDetails, Slot } from '@contract/api/booking';
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

export function book(
  app: FastifyInstance,
  body: Record<string, unknown>,
  key: string = randomUUID(),
  options: ClientOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/booking/appointments',
    headers: { 'idempotency-key': key, ...options.headers },
    remoteAddress: options.remoteAddress ?? newClientAddress(),
    payload: body,
  });
}

export function hold(app: FastifyInstance, body: Record<string, unknown>, options: ClientOptions = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/booking/holds',
    headers: { ...options.headers },
    remoteAddress: options.remoteAddress ?? newClientAddress(),
    payload: body,
  });
}

export function requestBooking(
  app: FastifyInstance,
  body: Record<string, unknown>,
  key: string = randomUUID(),
  options: ClientOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/booking/booking-requests',
    headers: { 'idempotency-key': key, ...options.headers },
    remoteAddress: options.remoteAddress ?? newClientAddress(),
    payload: body,
  });
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
