import { BOOK_OPERATION } from './book-operation';
import { portalStatusesOf, toAppointment } from './mappings/appointment';
import { toPatient } from './mappings/patient';
import { toQuestionnaireResponse, type ModelCache } from './mappings/questionnaire-response';
import { invalidParameter } from './outcome';
import type { AppointmentQuery, PatientsRepository, TimeOrderedQuery } from './patients-repository';
import type { FhirResourceDefinition } from './resource-definition';
import { pageOf, singleValued, type SearchInput, type SearchParamDefinition } from './search';
import { boundsOf, parseTimeKey, patientIdsOf, referencedIds, timeKey } from './search-values';

/**
 * Patients, their appointments and the questionnaire answers given for their bookings, read by id
 * and searched a keyset page at a time: patients in id order, appointments by start time and
 * answers by the time they were saved (then id), so rows added between two pages neither repeat
 * nor hide others.
 */

export interface PatientResourcesDeps {
  repository: PatientsRepository;
}

const PATIENT_PARAM: SearchParamDefinition = { name: 'patient', type: 'reference', documentation: 'Patient/<id>' };
const SUBJECT_PARAM: SearchParamDefinition = { name: 'subject', type: 'reference', documentation: 'Patient/<id> (as patient)' };
/** R4's appointment statuses; the portal's appointments are only some of them. */
const FHIR_APPOINTMENT_STATUSES = new Set<string>([
  'proposed',
  'pending',
  'booked',
  'arrived',
  'fulfilled',
  'cancelled',
  'noshow',
  'entered-in-error',
  'checked-in',
  'waitlist',
]);
const REFERENCE = /^(?:https?:\/\/[^?#\s]*\/)?(?:([A-Z][A-Za-z]{1,40})\/)?([A-Za-z0-9\-.]{1,64})$/;

/** What every time-ordered search shares: _id, the patient, the time range and the cursor. */
function timeOrderedQuery(input: SearchInput, dateParam: string): TimeOrderedQuery {
  const ids = singleValued(input, '_id');
  const patientIds = patientIdsOf(input);
  const range = boundsOf(input, dateParam);
  const after = parseTimeKey(input.after);
  return {
    limit: input.count + 1,
    ...(ids === undefined ? {} : { ids }),
    ...(patientIds === undefined ? {} : { patientIds }),
    range,
    ...(after === undefined ? {} : { after }),
  };
}

function patientResource(deps: PatientResourcesDeps): FhirResourceDefinition {
  const { repository } = deps;
  return {
    type: 'Patient',
    patientData: true,
    documentation: 'A patient, with the details given when booking',
    searchParams: [
      { name: 'name', type: 'string', documentation: 'A case-insensitive start of the family or given name' },
      { name: 'birthdate', type: 'date', documentation: 'The date of birth (eq, or a range with ge, gt, le, lt)' },
      { name: 'email', type: 'token', documentation: 'The e-mail address (any case)' },
    ],
    read: async (id) => {
      const [row] = await repository.patients({ ids: [id], limit: 1 });
      return row === undefined ? null : toPatient(row);
    },
    search: async (input) => {
      const ids = singleValued(input, '_id');
      const names = input.groups.get('name');
      const emails = singleValued(input, 'email');
      const birth = boundsOf(input, 'birthdate');
      const rows = await repository.patients({
        limit: input.count + 1,
        ...(ids === undefined ? {} : { ids }),
        ...(names === undefined ? {} : { names }),
        ...(emails === undefined ? {} : { emails }),
        birthDates: birth,
        ...(input.after === undefined ? {} : { after: input.after }),
      });
      return pageOf(rows, input.count, (row) => row.id, toPatient);
    },
  };
}

/** `actor` groups as typed or bare ids. */
function actorsOf(input: SearchInput): AppointmentQuery['actors'] {
  return input.groups.get('actor')?.map((group) =>
    group.map((value) => {
      const match = REFERENCE.exec(value);
      if (match === null) throw invalidParameter('actor takes Patient/<id>, Location/<id>, HealthcareService/<id> or Practitioner/<id>.');
      return { type: match[1], id: match[2] ?? '' };
    }),
  );
}

function appointmentQuery(input: SearchInput): AppointmentQuery {
  const statuses = singleValued(input, 'status');
  if (statuses?.some((status) => !FHIR_APPOINTMENT_STATUSES.has(status)))
    throw invalidParameter(`status takes R4 appointment statuses: ${[...FHIR_APPOINTMENT_STATUSES].join(', ')}.`);
  const actors = actorsOf(input);
  const locationIds = referencedIds(input, 'location', 'Location');
  const updated = boundsOf(input, '_lastUpdated');
  return {
    ...timeOrderedQuery(input, 'date'),
    ...(statuses === undefined ? {} : { statuses: statuses.flatMap(portalStatusesOf) }),
    ...(actors === undefined ? {} : { actors }),
    ...(locationIds === undefined ? {} : { locationIds }),
    updated,
  };
}

function appointmentResource(deps: PatientResourcesDeps): FhirResourceDefinition {
  const { repository } = deps;
  return {
    type: 'Appointment',
    patientData: true,
    operations: [BOOK_OPERATION],
    patch: true,
    documentation: 'One exam booked at one time at a clinic (a time only held while booking is not one)',
    searchParams: [
      { name: 'date', type: 'date', documentation: 'The start (ge, gt, le, lt; eq or none: that day or instant)' },
      { name: 'status', type: 'token', documentation: 'booked, pending, checked-in, cancelled or entered-in-error' },
      PATIENT_PARAM,
      { name: 'actor', type: 'reference', documentation: 'Patient/, Location/, HealthcareService/ or Practitioner/<id>' },
      { name: 'location', type: 'reference', documentation: 'Location/<id>: the clinic' },
      { name: '_lastUpdated', type: 'date', documentation: 'When the appointment last changed (ge, gt, le, lt)' },
    ],
    read: async (id) => {
      const [row] = await repository.appointments({ ids: [id], limit: 1 });
      return row === undefined ? null : toAppointment(row);
    },
    search: async (input) =>
      pageOf(await repository.appointments(appointmentQuery(input)), input.count, (row) => timeKey(row.start, row.id), toAppointment),
  };
}

function questionnaireResponseResource(deps: PatientResourcesDeps): FhirResourceDefinition {
  const { repository } = deps;
  return {
    type: 'QuestionnaireResponse',
    patientData: true,
    documentation: 'A questionnaire answered for a booking or a booking request',
    searchParams: [
      PATIENT_PARAM,
      SUBJECT_PARAM,
      { name: 'authored', type: 'date', documentation: 'When it was answered (ge, gt, le, lt; eq or none: that day or instant)' },
      { name: 'questionnaire', type: 'reference', documentation: 'The questionnaire’s canonical URL or its slug' },
    ],
    read: async (id) => {
      const [row] = await repository.answers({ ids: [id], limit: 1 });
      return row === undefined ? null : toQuestionnaireResponse(row);
    },
    search: async (input) => {
      const questionnaires = singleValued(input, 'questionnaire')?.map((value) => value.replace(/^.*\/Questionnaire\//, ''));
      const rows = await repository.answers({
        ...timeOrderedQuery(input, 'authored'),
        ...(questionnaires === undefined ? {} : { questionnaires }),
      });
      const models: ModelCache = new Map();
      return pageOf(
        rows,
        input.count,
        (row) => timeKey(row.saved_at, row.id),
        (row) => toQuestionnaireResponse(row, models),
      );
    },
  };
}

export function patientResources(deps: PatientResourcesDeps): FhirResourceDefinition[] {
  return [patientResource(deps), appointmentResource(deps), questionnaireResponseResource(deps)];
}
