import type { CodeableConcept, Schedule } from '@medplum/fhirtypes';
import type { ClinicRow, ExamRow } from '../repository';
import { scheduleId } from '../schedule-ids';
import { PORTAL_SYSTEM } from './systems';

/** The exam as the service type of its schedule and slots. */
export function serviceTypeOf(exam: ExamRow): CodeableConcept[] {
  return [{ coding: [{ system: `${PORTAL_SYSTEM}/exam-code`, code: exam.exam_code, display: exam.name }], text: exam.name }];
}

/** One exam at one clinic, bookable online, as an R4 Schedule (docs/integration/fhir.md#schedule). */
export function toSchedule(clinic: ClinicRow, exam: ExamRow, horizon: { start: string; end: string } | null): Schedule {
  return {
    resourceType: 'Schedule',
    id: scheduleId({ clinicId: clinic.id, examId: exam.id }),
    active: true,
    serviceType: serviceTypeOf(exam),
    actor: [
      { reference: `Location/${clinic.id}`, display: clinic.name },
      { reference: `HealthcareService/${exam.id}`, display: exam.name },
    ],
    ...(horizon === null ? {} : { planningHorizon: horizon }),
    comment: `${exam.name} at ${clinic.name}: ${exam.duration_minutes} minutes`,
  };
}
