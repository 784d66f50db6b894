import type { Slot } from '@medplum/fhirtypes';
import type { ExamRow } from '../repository';
import { scheduleId, slotId, type ScheduleKey } from '../schedule-ids';
import { serviceTypeOf } from './schedule';

const MINUTE = 60_000;

/** A free start time of an exam at a clinic as an R4 Slot (docs/integration/fhir.md#slot); only free times are slots. */
export function toSlot(key: ScheduleKey, exam: ExamRow, start: number): Slot {
  return {
    resourceType: 'Slot',
    id: slotId(key, start),
    serviceType: serviceTypeOf(exam),
    schedule: { reference: `Schedule/${scheduleId(key)}` },
    status: 'free',
    start: new Date(start).toISOString(),
    end: new Date(start + exam.duration_minutes * MINUTE).toISOString(),
  };
}
