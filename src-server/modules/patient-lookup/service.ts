import {
  PATIENT_LOOKUP_LIMITS,
  PATIENT_LOOKUP_MAX_RESULTS,
  PATIENT_LOOKUP_MESSAGES,
  type FoundPatient,
  type PatientLookupRequest,
  type PatientLookupResponse,
} from '@contract/api/patient-lookup';
import { PATIENT_TITLES } from '@contract/api/booking';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { tooManyRequests } from '../../platform/errors';
import { createPatientLookupRepository, type FoundPatientRow } from './repository';

/**
 * Staff look up a patient who booked before (docs/rules/booking.md#patient-lookup). Each lookup is
 * counted against the staff member's limits first, then audited: who, how (name, phone or
 * e-mail) and how many were found, never what was searched for (audit details hold no personal data).
 */

const TEN_MINUTES_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

function windowsAt(now: Date): { kind: 'ten_minutes' | 'day'; start: Date; end: Date; limit: number }[] {
  const at = now.getTime();
  const tenStart = at - (at % TEN_MINUTES_MS);
  const dayStart = at - (at % DAY_MS);
  return [
    {
      kind: 'ten_minutes',
      start: new Date(tenStart),
      end: new Date(tenStart + TEN_MINUTES_MS),
      limit: PATIENT_LOOKUP_LIMITS.perTenMinutes,
    },
    { kind: 'day', start: new Date(dayStart), end: new Date(dayStart + DAY_MS), limit: PATIENT_LOOKUP_LIMITS.perDay },
  ];
}

const isTitle = (value: string): value is (typeof PATIENT_TITLES)[number] => (PATIENT_TITLES as readonly string[]).includes(value);

function toFoundPatient(row: FoundPatientRow): FoundPatient {
  const startsAt = row.last_starts_at === null ? null : new Date(row.last_starts_at).toISOString();
  return {
    title: isTitle(row.title) ? row.title : null,
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    email: row.email?.trim() ?? '',
    contactNumber: row.contact_number ?? '',
    postalCode: row.postcode ?? '',
    lastAppointment:
      startsAt === null || row.last_exam === null || row.last_clinic === null
        ? null
        : { startsAt, examName: row.last_exam, clinicName: row.last_clinic },
  };
}

export function createPatientLookup(deps: { db: Queryable; clock: Clock }) {
  const repository = createPatientLookupRepository(deps.db);
  const audit = createAuditLogRepository(deps.db);

  async function admit(staffRef: string, now: Date): Promise<void> {
    const windows = windowsAt(now);
    const counts = await repository.count(staffRef, windows, now);
    const over = windows.filter((window) => (counts.get(window.kind) ?? 0) > window.limit);
    if (over.length === 0) return;
    await repository.uncount(staffRef, windows);
    await audit.record({
      actor: staffRef,
      action: 'staff_patient_lookup_refused',
      subjectType: null,
      subjectId: null,
      details: { reason: 'too_many', window: over.map((window) => window.kind).join(',') },
      now,
    });
    const wait = Math.max(...over.map((window) => window.end.getTime() - now.getTime())) / 1000;
    throw tooManyRequests(PATIENT_LOOKUP_MESSAGES.tooMany, wait);
  }

  return {
    async lookup(staffRef: string, request: PatientLookupRequest): Promise<PatientLookupResponse> {
      const now = deps.clock.now();
      await admit(staffRef, now);
      const rows = await repository.find(request, PATIENT_LOOKUP_MAX_RESULTS + 1);
      const patients = rows.slice(0, PATIENT_LOOKUP_MAX_RESULTS).map(toFoundPatient);
      await audit.record({
        actor: staffRef,
        action: 'staff_patient_lookup',
        subjectType: null,
        subjectId: null,
        details: { by: request.by, found: patients.length, more: rows.length > PATIENT_LOOKUP_MAX_RESULTS },
        now,
      });
      return { patients, more: rows.length > PATIENT_LOOKUP_MAX_RESULTS };
    },
  };
}

export type PatientLookupService = ReturnType<typeof createPatientLookup>;
