import { createHmac } from 'node:crypto';
import type { AppointmentCreateRequest, AppointmentCreateResponse } from '@contract/api/booking';
import type { BookingService } from './service';

/**
 * Booking by one of the provider's own systems (a RIS through the FHIR API's Appointment/$book):
 * the same rules as the booking pages (offered exams and times, the free-resource choice, the
 * exclusion constraint that decides races, the screening questionnaires and their outcomes), with
 * the system named in the audit log and none of the per-address limits a public page needs.
 *
 * The screening answers it sends are saved under a temporary key first, as the booking pages
 * save theirs, so they are checked the same way. That key is derived from the system and its
 * Idempotency-Key: a retry asks with the same request, and gets the first answer back instead of
 * a second booking.
 */

export interface ScreeningAnswer {
  questionnaireId: string;
  /** The exam the answer is for (a questionnaire of an exam or a modality). */
  examSlug?: string;
  result: Record<string, unknown>;
}

export interface SystemBookingRequest {
  /** The system's client id (the access token's azp or client_id). */
  client: string;
  idempotencyKey: string;
  booking: Omit<AppointmentCreateRequest, 'questionnaireKey' | 'staffBooking' | 'pending'>;
  answers: readonly ScreeningAnswer[];
}

export interface SystemBookingDeps {
  booking: Pick<BookingService, 'createAppointment' | 'replayAppointment'>;
  questionnaires: {
    ensureBookingKey(bookingKey: string): Promise<void>;
    saveTemporaryAnswer(request: {
      bookingKey: string;
      questionnaireId: string;
      examSlug?: string;
      questionnaireResult: Record<string, unknown>;
    }): Promise<unknown>;
  };
  secret: () => Promise<string>;
}

export function createSystemBooking(deps: SystemBookingDeps) {
  const keyOf = async (client: string, idempotencyKey: string): Promise<string> =>
    createHmac('sha256', await deps.secret())
      .update(`system-booking\u0000${client}\u0000${idempotencyKey}`)
      .digest('base64url')
      .slice(0, 32);

  return {
    async book(asked: SystemBookingRequest): Promise<AppointmentCreateResponse> {
      const questionnaireKey = asked.answers.length === 0 ? undefined : await keyOf(asked.client, asked.idempotencyKey);
      const request: AppointmentCreateRequest = { ...asked.booking, ...(questionnaireKey === undefined ? {} : { questionnaireKey }) };
      // A retry of a booking made: its first answer (the key's answers have moved to the booking).
      const replayed = await deps.booking.replayAppointment(asked.idempotencyKey, request);
      if (replayed !== null) return replayed;
      if (questionnaireKey !== undefined) {
        await deps.questionnaires.ensureBookingKey(questionnaireKey);
        for (const answer of asked.answers)
          await deps.questionnaires.saveTemporaryAnswer({
            bookingKey: questionnaireKey,
            questionnaireId: answer.questionnaireId,
            ...(answer.examSlug === undefined ? {} : { examSlug: answer.examSlug }),
            questionnaireResult: answer.result,
          });
      }
      const client = { ip: 'system', captcha: undefined, exempt: true, staff: true };
      return deps.booking.createAppointment(asked.idempotencyKey, request, { kind: 'system', client: asked.client }, client);
    },
  };
}

export type SystemBooking = ReturnType<typeof createSystemBooking>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Booking by the provider's own systems (the FHIR API's $book); the booking module makes it. */
    readonly systemBooking: SystemBooking;
  }
}
