import type {
  AppointmentBookingResponse,
  AutocompleteResponse,
  NewBookingKeyResponse,
  OutcomeProcessingResult,
  PendingQuestionnairesResponse,
  PostBookingAnswerResponse,
  ProcessOutcomesRequest,
  QuestionnaireListResponse,
  QuestionnaireType,
  ReKeyResponse,
  SavedAnswerResponse,
  TemporaryAnswerRequest,
  PostBookingAnswerRequest,
} from '@contract/api/questionnaires';
import type { ApiClient } from './client';

/**
 * Typed calls of /api/questionnaires/* (src-contract/api/questionnaires.ts). Answers
 * are typed by the contract, not parsed again
 * (see booking-api.ts: zod stays off the booking home).
 */
export function createQuestionnairesApi(client: ApiClient) {
  const { http } = client;
  const key = (bookingKey: string) => encodeURIComponent(bookingKey);
  const types = (list?: readonly QuestionnaireType[]) => (list && list.length > 0 ? list.join(',') : undefined);

  return {
    // Booking time: the temporary key is the capability (no session).

    newBookingKey: async (): Promise<NewBookingKeyResponse> =>
      (await http.post<NewBookingKeyResponse>('/api/questionnaires/booking-keys')).data,

    /** The booking-time questionnaires of the chosen exams, in the order to open them. */
    forBooking: async (query: { bookingKey: string; exams: readonly string[] }): Promise<QuestionnaireListResponse> =>
      (
        await http.get<QuestionnaireListResponse>('/api/questionnaires', {
          params: { bookingKey: query.bookingKey, exams: query.exams.join(',') },
        })
      ).data,

    saveTemporary: async (body: TemporaryAnswerRequest): Promise<SavedAnswerResponse> =>
      (await http.post<SavedAnswerResponse>('/api/questionnaires/temporary-answers', body)).data,

    reKey: async (oldBookingKey: string, newBookingKey: string): Promise<ReKeyResponse> =>
      (await http.post<ReKeyResponse>('/api/questionnaires/re-key', { oldBookingKey, newBookingKey })).data,

    processOutcomes: async (body: ProcessOutcomesRequest): Promise<OutcomeProcessingResult> =>
      (await http.post<OutcomeProcessingResult>('/api/questionnaires/outcomes', body)).data,

    autocomplete: async (source: string, q: string): Promise<string[]> =>
      (await http.get<AutocompleteResponse>(`/api/questionnaires/autocomplete/${encodeURIComponent(source)}`, { params: { q } })).data
        .suggestions,

    // After booking: the patient's session for that booking key.

    appointmentBooking: async (appointmentSlug: string): Promise<AppointmentBookingResponse> =>
      (await http.get<AppointmentBookingResponse>(`/api/questionnaires/appointment-slugs/${encodeURIComponent(appointmentSlug)}`)).data,
    forAppointment: async (bookingKey: string, list?: readonly QuestionnaireType[]): Promise<PendingQuestionnairesResponse> =>
      (
        await http.get<PendingQuestionnairesResponse>(`/api/questionnaires/appointments/${key(bookingKey)}`, {
          params: { types: types(list) },
        })
      ).data,

    saveAppointmentAnswer: async (bookingKey: string, body: PostBookingAnswerRequest): Promise<PostBookingAnswerResponse> =>
      (await http.post<PostBookingAnswerResponse>(`/api/questionnaires/appointments/${key(bookingKey)}/answers`, body)).data,

    savePainScore: async (bookingKey: string, body: PostBookingAnswerRequest): Promise<PostBookingAnswerResponse> =>
      (await http.post<PostBookingAnswerResponse>(`/api/questionnaires/appointments/${key(bookingKey)}/pain-score`, body)).data,

    forBookingRequest: async (bookingKey: string, list?: readonly QuestionnaireType[]): Promise<PendingQuestionnairesResponse> =>
      (
        await http.get<PendingQuestionnairesResponse>(`/api/questionnaires/booking-requests/${key(bookingKey)}`, {
          params: { types: types(list) },
        })
      ).data,

    saveBookingRequestAnswer: async (bookingKey: string, body: PostBookingAnswerRequest): Promise<PostBookingAnswerResponse> =>
      (await http.post<PostBookingAnswerResponse>(`/api/questionnaires/booking-requests/${key(bookingKey)}/answers`, body)).data,
  };
}

export type QuestionnairesApi = ReturnType<typeof createQuestionnairesApi>;
