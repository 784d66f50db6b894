import type { WaitlistClinicChoice, WaitlistStatus } from '@contract/api/waitlist';
import type {
  AppointmentSummary,
  CancelRequest,
  CanChangeResponse,
  ConsentForm,
  ConsentFormsResponse,
  DetailsChangeRequest,
  DetailsChangeResponse,
  RequestReschedule,
  RescheduleRequest,
  SignConsentForm,
} from '@contract/api/appointments';
import type { DayPlan } from '@contract/api/day-plan';
import type { ApiClient } from './client';

/**
 * Typed calls of /api/appointments/{bookingKey}/* (src-contract/api/appointments.ts).
 *
 * Only types come from the contract (the server serialises every answer through the same
 * schemas); a 401 on any of them follows the client's logout rule (docs/rules/patient-access.md#logout-on-401).
 */
export function createAppointmentsApi(client: ApiClient) {
  const { http } = client;
  const base = (bookingKey: string) => `/api/appointments/${encodeURIComponent(bookingKey)}`;

  return {
    summary: async (bookingKey: string): Promise<AppointmentSummary> => (await http.get<AppointmentSummary>(base(bookingKey))).data,

    /**
     * The confirmation, read by the browser that booked (its receipt cookie) or the signed-in
     * patient. Without either its 401 is no lost session (flagged like a sign-in call): the page
     * then asks the patient to sign in.
     */
    confirmation: async (bookingKey: string): Promise<AppointmentSummary> =>
      (await http.get<AppointmentSummary>(`${base(bookingKey)}/confirmation`, { signIn: true })).data,

    /** The .ics download's address (a plain link: the browser sends the receipt or session cookie). */
    calendarFileUrl: (bookingKey: string): string => `${base(bookingKey)}/calendar.ics`,

    /** Whether the patient may cancel or reschedule now, and why not. */
    canChange: async (bookingKey: string, action: 'CANCEL' | 'RESCHEDULE'): Promise<CanChangeResponse> =>
      (await http.get<CanChangeResponse>(`${base(bookingKey)}/can-change`, { params: { action } })).data,

    cancel: async (bookingKey: string, body: CancelRequest): Promise<AppointmentSummary> =>
      (await http.post<AppointmentSummary>(`${base(bookingKey)}/cancel`, body)).data,

    /** Moves the booking to a new time in one transaction; a retry with the same key moves nothing twice. */
    reschedule: async (bookingKey: string, body: RescheduleRequest, idempotencyKey: string): Promise<AppointmentSummary> =>
      (await http.post<AppointmentSummary>(`${base(bookingKey)}/reschedule`, body, { headers: { 'Idempotency-Key': idempotencyKey } }))
        .data,

    requestReschedule: async (bookingKey: string, body: RequestReschedule = {}): Promise<AppointmentSummary> =>
      (await http.post<AppointmentSummary>(`${base(bookingKey)}/request-reschedule`, body)).data,

    confirm: async (bookingKey: string): Promise<AppointmentSummary> =>
      (await http.post<AppointmentSummary>(`${base(bookingKey)}/confirm`)).data,

    /** The day planned before arrival (docs/rules/day-plan.md): timed steps, what is missing, the way there. */
    /** The waiting list for an earlier time (docs/rules/waitlist.md): where it stands, join (PUT), leave (DELETE). */
    waitlist: async (bookingKey: string): Promise<WaitlistStatus> => (await http.get<WaitlistStatus>(`${base(bookingKey)}/waitlist`)).data,
    joinWaitlist: async (bookingKey: string, clinics: WaitlistClinicChoice = 'same'): Promise<WaitlistStatus> =>
      (await http.put<WaitlistStatus>(`${base(bookingKey)}/waitlist`, { clinics })).data,
    leaveWaitlist: async (bookingKey: string): Promise<WaitlistStatus> =>
      (await http.delete<WaitlistStatus>(`${base(bookingKey)}/waitlist`)).data,

    dayPlan: async (bookingKey: string): Promise<DayPlan> =>
      (await http.get<DayPlan>(`/api/secured/appointments/${encodeURIComponent(bookingKey)}/day-plan`)).data,

    consentForms: async (bookingKey: string): Promise<ConsentFormsResponse> =>
      (await http.get<ConsentFormsResponse>(`${base(bookingKey)}/consent-forms`)).data,

    signConsentForm: async (bookingKey: string, id: string, body: SignConsentForm): Promise<ConsentForm> =>
      (await http.put<ConsentForm>(`${base(bookingKey)}/consent-forms/${encodeURIComponent(id)}`, body)).data,

    detailsChangeRequest: async (bookingKey: string, body: DetailsChangeRequest): Promise<DetailsChangeResponse> =>
      (await http.post<DetailsChangeResponse>(`${base(bookingKey)}/details-change-request`, body)).data,

    unsubscribe: async (bookingKey: string): Promise<AppointmentSummary> =>
      (await http.post<AppointmentSummary>(`${base(bookingKey)}/unsubscribe`)).data,
  };
}

export type AppointmentsApi = ReturnType<typeof createAppointmentsApi>;
