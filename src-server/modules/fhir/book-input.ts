import type { Appointment, Parameters, Patient, QuestionnaireResponse } from '@medplum/fhirtypes';
import { PatientDetailsSchema, type PatientDetails } from '@contract/api/booking';
import { FhirError, invalidParameter } from './outcome';
import { parseSlotId, type ScheduleKey } from './schedule-ids';

/**
 * The input of Appointment/$book (the Argonaut Scheduling IG's shape): a Parameters resource with
 * `appt-resource` (an Appointment naming one free Slot, and its patient as a participant
 * `Patient/<id>` unless a `patient-resource` gives new details) and any number of
 * `questionnaire-response` (the exam's screening answers). What cannot be read is a 400 that
 * says which element.
 */

export const MEDICARE_NUMBER_SYSTEM = 'http://ns.electronichealth.net.au/id/medicare-number';

export interface BookInput {
  slot: ScheduleKey & { start: number };
  /** New details (patient-resource), or the id of a Patient whose details are booked again. */
  patient: { details: PatientDetails } | { id: string };
  answers: QuestionnaireResponse[];
}

function unprocessable(message: string): FhirError {
  return new FhirError(400, 'invalid', message);
}

function resourcesNamed(body: Parameters, name: string): unknown[] {
  return (body.parameter ?? []).filter((parameter) => parameter.name === name).map((parameter) => parameter.resource);
}

function slotOf(appointment: Appointment): BookInput['slot'] {
  const references = appointment.slot ?? [];
  const match = references.length === 1 ? /^(?:.*\/)?Slot\/([A-Za-z0-9\-.]{1,64})$/.exec(references[0]?.reference ?? '') : null;
  const slot = match === null ? null : parseSlotId(match[1] ?? '');
  if (slot === null) throw unprocessable('Appointment.slot must name one Slot (Slot/<id>, from a Slot search).');
  return slot;
}

function patientReferenceOf(appointment: Appointment): string | null {
  const references = (appointment.participant ?? []).flatMap((participant) => {
    const match = /^(?:.*\/)?Patient\/([A-Za-z0-9\-.]{1,64})$/.exec(participant.actor?.reference ?? '');
    return match === null ? [] : [match[1] ?? ''];
  });
  if (references.length > 1) throw unprocessable('Appointment.participant may name one Patient.');
  return references[0] ?? null;
}

/** An Australian phone number as the booking form takes it: digits only, +61 as 0. */
function contactNumberOf(value: string): string {
  const digits = value.replace(/[\s()-]/g, '');
  return digits.startsWith('+61') ? `0${digits.slice(3)}` : digits;
}

/** Which element of the Patient each of the booking's patient details comes from (for the 400's expression). */
const PATIENT_ELEMENTS: Record<string, string> = {
  title: 'Patient.name[0].prefix[0]',
  firstName: 'Patient.name[0].given[0]',
  lastName: 'Patient.name[0].family',
  dateOfBirth: 'Patient.birthDate',
  email: 'Patient.telecom (email)',
  contactNumber: 'Patient.telecom (phone)',
  postalCode: 'Patient.address[0].postalCode',
  medicareNumber: `Patient.identifier (${MEDICARE_NUMBER_SYSTEM})`,
};

/** A Patient's details as the booking form's (the same rules: PatientDetailsSchema). */
export function patientDetailsOf(patient: Patient): PatientDetails {
  const name = patient.name?.find((candidate) => candidate.use === 'official') ?? patient.name?.[0];
  const email = patient.telecom?.find((point) => point.system === 'email')?.value;
  const phone = patient.telecom?.find((point) => point.system === 'phone' || point.system === 'sms')?.value;
  const medicare = patient.identifier?.find((identifier) => identifier.system === MEDICARE_NUMBER_SYSTEM)?.value;
  const parsed = PatientDetailsSchema.safeParse({
    title: name?.prefix?.[0],
    firstName: name?.given?.[0],
    lastName: name?.family,
    dateOfBirth: patient.birthDate,
    email,
    contactNumber: phone === undefined ? undefined : contactNumberOf(phone),
    postalCode: patient.address?.[0]?.postalCode,
    ...(medicare === undefined ? {} : { medicareNumber: medicare.replace(/\s/g, '') }),
  });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${PATIENT_ELEMENTS[String(issue.path[0])] ?? 'Patient'}: ${issue.message}`);
  throw unprocessable(`The patient's details cannot be booked. ${problems.join(' ')}`);
}

function isResource<T extends { resourceType: string }>(value: unknown, type: T['resourceType']): value is T {
  return typeof value === 'object' && value !== null && (value as { resourceType?: unknown }).resourceType === type;
}

export function readBookInput(body: unknown): BookInput {
  if (!isResource<Parameters>(body, 'Parameters') || !Array.isArray(body.parameter))
    throw invalidParameter('Appointment/$book takes a Parameters resource (appt-resource, patient-resource, questionnaire-response).');
  const [appointment, ...moreAppointments] = resourcesNamed(body, 'appt-resource');
  if (!isResource<Appointment>(appointment, 'Appointment') || moreAppointments.length > 0)
    throw unprocessable('Appointment/$book needs one appt-resource, an Appointment.');
  const patients = resourcesNamed(body, 'patient-resource');
  const answers = resourcesNamed(body, 'questionnaire-response');
  if (!answers.every((answer) => isResource<QuestionnaireResponse>(answer, 'QuestionnaireResponse')))
    throw unprocessable('Each questionnaire-response must be a QuestionnaireResponse.');
  const reference = patientReferenceOf(appointment);
  const [newPatient, ...morePatients] = patients;
  if (morePatients.length > 0 || (newPatient !== undefined && !isResource<Patient>(newPatient, 'Patient')))
    throw unprocessable('patient-resource, when given, must be one Patient.');
  if (newPatient === undefined && reference === null)
    throw unprocessable('Name the patient: a participant Patient/<id>, or the new patient’s details as patient-resource.');
  return {
    slot: slotOf(appointment),
    patient: newPatient !== undefined ? { details: patientDetailsOf(newPatient as Patient) } : { id: reference ?? '' },
    answers: answers as QuestionnaireResponse[],
  };
}
