import type {
  AppointmentCreateRequest,
  AppointmentCreateResponse,
  AvailabilityResponse,
  BookingRequestCreate,
  BookingRequestCreateResponse,
  BookingSettings,
  Catalogue,
  ClinicsResponse,
  HoldRequest,
  HoldResponse,
  MonthResponse,
  PostalCodeLocation,
  WalkInExam,
} from '@contract/api/booking';
import type { ApiClient } from './client';

/**
 * Typed calls of /api/booking/* (src-contract/api/booking.ts).
 *
 * Answers are typed by the contract but not parsed again here: the server serialises every
 * answer through the same zod schemas (fastify-type-provider-zod), and importing the schemas
 * would put zod (about 24 KB gzipped) on the booking home, which must be interactive within
 * 200 KB of JavaScript (docs/web.md#budgets). Errors still arrive as typed ApiErrors.
 */
export function createBookingApi(client: ApiClient) {
  const { http } = client;
  const list = (values: readonly string[]) => values.join(',');

  return {
    catalogue: async (): Promise<Catalogue> => (await http.get<Catalogue>('/api/booking/catalogue')).data,

    settings: async (): Promise<BookingSettings> => (await http.get<BookingSettings>('/api/booking/settings')).data,

    /** The position of an Australian postcode; 404 not_found when unknown. */
    postcode: async (postcode: string): Promise<PostalCodeLocation> =>
      (await http.get<PostalCodeLocation>(`/api/booking/postcodes/${encodeURIComponent(postcode)}`)).data,

    /** Clinics offering every exam, nearest first from the position (the default location without one). */
    clinics: async (
      query: { exams: readonly string[]; latitude?: number; longitude?: number },
      signal?: AbortSignal,
    ): Promise<ClinicsResponse> =>
      (
        await http.get<ClinicsResponse>('/api/booking/clinics', {
          params: { exams: list(query.exams), lat: query.latitude, lng: query.longitude },
          signal,
        })
      ).data,

    /** Free start times per clinic and day, from a local date for 1 to 31 days. */
    availability: async (
      query: { exams: readonly string[]; clinics: readonly string[]; from: string; days: number },
      signal?: AbortSignal,
    ): Promise<AvailabilityResponse> =>
      (
        await http.get<AvailabilityResponse>('/api/booking/availability', {
          params: { exams: list(query.exams), clinics: list(query.clinics), from: query.from, days: query.days },
          signal,
        })
      ).data,

    /** Which days of a month (YYYY-MM) have a free time. */
    month: async (
      query: { exams: readonly string[]; clinics: readonly string[]; month: string },
      signal?: AbortSignal,
    ): Promise<MonthResponse> =>
      (
        await http.get<MonthResponse>('/api/booking/availability/month', {
          params: { exams: list(query.exams), clinics: list(query.clinics), month: query.month },
          signal,
        })
      ).data,

    /** Holds a time while the patient enters details; 409 slot_taken when it is gone. */
    hold: async (body: HoldRequest): Promise<HoldResponse> => (await http.post<HoldResponse>('/api/booking/holds', body)).data,

    releaseHold: async (holdId: string): Promise<void> => {
      await http.delete(`/api/booking/holds/${encodeURIComponent(holdId)}`);
    },

    /** Books the time; a retry with the same idempotency key creates nothing twice. */
    createAppointments: async (body: AppointmentCreateRequest, idempotencyKey: string): Promise<AppointmentCreateResponse> =>
      (await http.post<AppointmentCreateResponse>('/api/booking/appointments', body, { headers: { 'Idempotency-Key': idempotencyKey } }))
        .data,

    createBookingRequests: async (body: BookingRequestCreate, idempotencyKey: string): Promise<BookingRequestCreateResponse> =>
      (
        await http.post<BookingRequestCreateResponse>('/api/booking/booking-requests', body, {
          headers: { 'Idempotency-Key': idempotencyKey },
        })
      ).data,

    walkInExams: async (modality?: string): Promise<WalkInExam[]> =>
      (await http.get<WalkInExam[]>('/api/booking/walk-in-exams', { params: { modality } })).data,
  };
}

export type BookingApi = ReturnType<typeof createBookingApi>;
