import type { Bundle } from '@medplum/fhirtypes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PatientDetails } from '@contract/api/booking';
import type { ScreeningAnswer } from '../booking/public';
import { loadModel } from '../questionnaires/public';
import { fhirScope } from '../../platform/route-access';
import { fhirClientOf } from './access';
import { readBookInput, type BookInput } from './book-input';
import { toAppointment } from './mappings/appointment';
import { surveyResultOf } from './mappings/survey-answers-in';
import { FhirError, invalidParameter } from './outcome';
import type { PatientsRepository } from './patients-repository';
import type { FhirRepository } from './repository';
import { send } from './routes';

/**
 * Appointment/$book (the Argonaut Scheduling IG's operation): a RIS books a free Slot for a
 * patient through the booking module's own rules (app.systemBooking: offered times, the
 * exclusion constraint, the screening questionnaires and their outcomes). An Idempotency-Key
 * header (a UUID) makes a retry answer the first booking instead of making a second one.
 */

export const BOOK_OPERATION = {
  name: 'book',
  definition: 'http://fhir.org/guides/argonaut/scheduling/OperationDefinition/appointment-book',
  documentation:
    'Books a free Slot: Parameters with appt-resource (an Appointment naming one Slot, and Patient/<id> as a participant unless patient-resource gives new details) and the exam’s screening answers as questionnaire-response; Idempotency-Key header (UUID) for safe retries.',
} as const;

export interface BookOperationDeps {
  repository: FhirRepository;
  patients: PatientsRepository;
  /** The absolute base URL of the entries' full URLs. */
  base: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idempotencyKeyOf(request: FastifyRequest): string {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return crypto.randomUUID();
  if (typeof header !== 'string' || !UUID.test(header)) throw invalidParameter('The Idempotency-Key header must be one UUID.');
  return header.toLowerCase();
}

/** The details of the patient to book: new ones, or those a Patient of an earlier booking gave. */
async function patientOf(deps: BookOperationDeps, patient: BookInput['patient']): Promise<PatientDetails> {
  if ('details' in patient) return patient.details;
  const [row] = await deps.patients.patients({ ids: [patient.id], limit: 1 });
  if (row === undefined) throw new FhirError(400, 'invalid', 'The Patient named as participant is not one of this server’s.');
  return {
    title: row.title as PatientDetails['title'],
    firstName: row.first_name,
    lastName: row.last_name,
    dateOfBirth: row.date_of_birth,
    email: row.email ?? '',
    contactNumber: row.contact_number ?? '',
    postalCode: row.postcode ?? '',
  };
}

/** The screening answers as the questionnaires module takes them, each for the booked exam. */
async function answersOf(deps: BookOperationDeps, input: BookInput, examSlug: string): Promise<ScreeningAnswer[]> {
  const slugs = input.answers.map((answer) => /(?:^|\/)Questionnaire\/([a-z0-9-]{1,100})(?:\|.*)?$/.exec(answer.questionnaire ?? '')?.[1]);
  if (slugs.some((slug) => slug === undefined))
    throw invalidParameter('Each questionnaire-response names its questionnaire (urn:radiology-portal/Questionnaire/<slug>).');
  const rows = new Map((await deps.repository.questionnaires(slugs as string[])).map((row) => [row.slug, row]));
  return input.answers.map((answer, index) => {
    const row = rows.get(slugs[index] ?? '');
    if (row === undefined) throw invalidParameter(`There is no questionnaire ${slugs[index] ?? ''}.`);
    return { questionnaireId: row.id, examSlug, result: surveyResultOf(loadModel(row.json), answer.item ?? []) };
  });
}

export function bookOperation(deps: BookOperationDeps) {
  return (fhir: FastifyInstance): void => {
    fhir.post(
      '/Appointment/$book',
      {
        config: { access: fhirScope('Appointment', 'write') },
        schema: { tags: ['fhir'], summary: 'FHIR Appointment/$book: books a free Slot (scope system/Appointment.c)' },
      },
      async (request, reply) => {
        const input = readBookInput(request.body);
        const [clinic] = await deps.repository.clinics({ ids: [input.slot.clinicId], limit: 1 });
        const [exam] = await deps.repository.exams({ ids: [input.slot.examId], limit: 1 });
        if (clinic === undefined || exam === undefined)
          throw invalidParameter('Appointment.slot names no Slot of this server (search Slot for free times).');
        const booked = await fhir.systemBooking.book({
          client: fhirClientOf(request),
          idempotencyKey: idempotencyKeyOf(request),
          booking: {
            exams: [exam.slug],
            clinicSlug: clinic.slug,
            startsAt: new Date(input.slot.start).toISOString(),
            patient: await patientOf(deps, input.patient),
          },
          answers: await answersOf(deps, input, exam.slug),
        });
        const rows = await deps.patients.appointments({ ids: booked.appointments.map((appointment) => appointment.id), limit: 100 });
        const bundle: Bundle = {
          resourceType: 'Bundle',
          type: 'collection',
          entry: rows.map((row) => ({ fullUrl: `${deps.base}/Appointment/${row.id}`, resource: toAppointment(row) })),
        };
        return send(reply, 200, bundle);
      },
    );
  };
}
