import { PATIENT_MESSAGES, type BookingRequestCreate, type BookingRequestCreateResponse } from '@contract/api/booking';
import type { Database } from '../../db/connection';
import { sqlState, UNIQUE_VIOLATION } from '../../db/sql';
import type { Clock } from '../../platform/clock';
import { badRequest, validationError, type AppError } from '../../platform/errors';
import type { IdempotencyRepository } from '../../platform/idempotency-repository';
import { randomToken } from '../../platform/ids';
import { hashRequest } from '../../platform/request-hash';
import { localDate } from '../../platform/time-zone';
import { queueBookingRequestReceived } from '../notifications/public';
import { applyQuestionnaireAnswers, auditScreeningRefusal, outcomesForKey, UNKNOWN_QUESTIONNAIRE_KEY } from '../questionnaires/public';
import type { BookingClient, BookingLimiter } from './booking-limits';
import { clinicBySlug, type Catalogue } from './catalogue';
import type { BookingRepository } from './repository';
import { checkFormDetails, storeFormDetails } from './form-details';

/** Booking requests: exams the clinic books by hand (enquiry-only, or sent there by questionnaire answers). */

/** Patients' dates of birth are checked against the date in Australia's east when no clinic applies. */
const DEFAULT_PATIENT_ZONE = 'Australia/Sydney';

export interface BookingRequestWritesDeps {
  db: Database;
  repository: BookingRepository;
  idempotency: IdempotencyRepository;
  clock: Clock;
  catalogue: Catalogue;
  limiter: BookingLimiter;
  publicUrl: string;
}

export function createBookingRequestWrites(deps: BookingRequestWritesDeps) {
  const { db, repository, idempotency, clock, catalogue, limiter } = deps;

  /** Whether the temporary answers under this key turn the exams into a booking request (an unknown key: 400). */
  async function answersAskForRequest(questionnaireKey: string, examSlugs: readonly string[]): Promise<boolean> {
    try {
      return (await outcomesForKey(db, questionnaireKey, examSlugs, clock.now())).createBookingRequest;
    } catch (error) {
      if ((error as AppError).code === 'not_found') throw validationError('questionnaireKey', UNKNOWN_QUESTIONNAIRE_KEY);
      throw error;
    }
  }

  return {
    async createBookingRequest(
      idempotencyKey: string,
      request: BookingRequestCreate,
      client: BookingClient,
    ): Promise<BookingRequestCreateResponse> {
      const { catalogue: cached } = await catalogue.load();
      const clinic = request.clinicSlug === undefined ? null : clinicBySlug(cached, request.clinicSlug);
      const timeZone = clinic?.time_zone ?? DEFAULT_PATIENT_ZONE;
      if (request.patient.dateOfBirth > localDate(clock.now(), timeZone)) {
        throw validationError('patient/dateOfBirth', PATIENT_MESSAGES.dateOfBirthFuture);
      }
      // Insurance, ethnicity and practice against the provider's lists: a bad answer is a 400 before anything is written.
      const formDetails = await checkFormDetails(db, request.formDetails, request.patient.medicareNumber !== undefined);
      const requestHash = hashRequest(request);
      const replay = (): Promise<BookingRequestCreateResponse | null> =>
        idempotency.replay<BookingRequestCreateResponse>('booking_request', idempotencyKey, requestHash, 'booking');
      const replayed = await replay();
      if (replayed !== null) return replayed;

      // Answers whose outcome is CREATE_BOOKING_REQUEST turn bookable exams into requests.
      // A chat request is booked by the booking team on the phone, so any exam of the catalogue may be asked for.
      const chat = request.channel === 'chat';
      const requestedByAnswers =
        chat || (request.questionnaireKey !== undefined && (await answersAskForRequest(request.questionnaireKey, request.exams)));
      const planned = request.exams.map((slug) => {
        const exam = cached.examsBySlug.get(slug);
        let errorMessage: string | null = null;
        if (exam === undefined) errorMessage = `We could not find the exam '${slug}'.`;
        else if (!exam.enquiry_only && !requestedByAnswers)
          errorMessage = `${exam.name} can be booked online; please choose a time for it instead.`;
        else if (clinic !== null && !clinic.modality_ids.includes(exam.modality_id))
          errorMessage = `${exam.name} is not offered at ${clinic.name}.`;
        else if (exam.medicare_required && request.patient.medicareNumber === undefined) errorMessage = PATIENT_MESSAGES.medicareRequired;
        return { slug, exam, errorMessage, requestSlug: errorMessage === null ? randomToken() : null };
      });
      const results: BookingRequestCreateResponse['results'] = planned.map((item) =>
        item.errorMessage === null
          ? { examSlug: item.slug, success: true, ...(item.requestSlug === null ? {} : { slug: item.requestSlug }) }
          : { examSlug: item.slug, success: false, errorMessage: item.errorMessage },
      );
      const firstError = planned.find((item) => item.errorMessage !== null)?.errorMessage;
      if (planned.every((item) => item.errorMessage !== null)) {
        throw badRequest(firstError ?? 'No booking request could be created.', { results });
      }
      // Counted once the request can succeed; a retry answered from the idempotency record is not.
      await limiter.admitBooking(client, request.patient);
      const bookingKey = randomToken();
      const response: BookingRequestCreateResponse = { bookingKey, results };
      const now = clock.now();
      try {
        await db.transaction(async (tx) => {
          const { screeningsMissing } = await applyQuestionnaireAnswers(tx, request.questionnaireKey, {
            examSlugs: planned.flatMap((item) => (item.requestSlug === null ? [] : [item.slug])),
            owner: 'BOOKING_REQUEST',
            bookingKey,
            now,
            hasMedicareNumber: request.patient.medicareNumber !== undefined,
            validationCode: request.validationCode,
            screeningByPhone: chat,
          });
          const patientId = await repository.insertPatient(request.patient, tx);
          await storeFormDetails(tx, { bookingKey, owner: 'BOOKING_REQUEST', now }, formDetails);
          for (const item of planned) {
            if (item.exam === undefined || item.requestSlug === null) continue;
            await repository.insertBookingRequest(
              {
                slug: item.requestSlug,
                bookingKey,
                examId: item.exam.id,
                clinicId: clinic?.id ?? null,
                patientId,
                patientNotes: request.patientNotes ?? '',
                channel: request.channel ?? 'web',
                preferredTimes: request.preferredTimes ?? [],
                screeningByPhone: screeningsMissing > 0,
              },
              tx,
            );
          }
          // The acknowledgement, within the day's cap of booking mails to one address (booking-limits.ts).
          if (await limiter.confirmationMailAllowed(tx, request.patient.email)) {
            await queueBookingRequestReceived(
              tx,
              {
                bookingKey,
                patient: request.patient,
                clinic: clinic === null ? null : { name: clinic.name, phone: clinic.phone === '' ? null : clinic.phone },
                exams: planned.flatMap((item) => (item.exam === undefined || item.requestSlug === null ? [] : [item.exam.name])),
              },
              { publicUrl: deps.publicUrl, clock },
            );
          }
          await repository.audit(
            {
              actor: 'patient',
              action: 'booking_request.created',
              subjectType: 'booking_request',
              subjectId: planned.flatMap((item) => (item.requestSlug === null ? [] : [item.exam?.slug ?? ''])).join(','),
              details: {
                clinic: clinic?.slug ?? null,
                created: results.filter((result) => result.success).length,
                channel: request.channel ?? 'web',
                screeningByPhone: screeningsMissing > 0,
              },
            },
            tx,
          );
          await idempotency.insert({ scope: 'booking_request', key: idempotencyKey, requestHash, statusCode: 201, response, now }, tx);
        });
      } catch (error) {
        if (sqlState(error) === UNIQUE_VIOLATION) {
          const winner = await replay();
          if (winner !== null) return winner;
        }
        await auditScreeningRefusal(db, error, { actor: 'patient', kind: 'booking_request', examSlugs: request.exams, subjectId: null });
        throw error;
      }
      return response;
    },
  };
}
