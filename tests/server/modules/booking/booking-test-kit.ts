import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AvailabilityResponse, PatientDetails, Slot } from '@contract/api/booking';
import type { Database } from '../../../../src-server/db/connection';
import { zonedTimeToInstant } from '../../../../src-server/platform/time-zone';

/** Shared pieces of the booking tests: a valid patient, calls, and the database audits. */

/** 2123456701 passes the Medicare check digit (weights 1,3,7,9,1,3,7,9 over the first 8). */
export const VALID_MEDICARE = '2123456701';

export function patient(overrides: Partial<PatientDetails> = {}): PatientDetails {
  return {
    title: 'Ms',
    firstName: 'Ada',
    lastName: "O'Neill-Lovelace",
    dateOfBirth: '1985-12-10',
    email: 'ada@example.com',
    contactNumber: '0412345678',
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

export function book(app: FastifyInstance, body: Record<string, unknown>, key: string = randomUUID()): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/booking/appointments', headers: { 'idempotency-key': key }, payload: body });
}

export function hold(app: FastifyInstance, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/booking/holds', payload: body });
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
