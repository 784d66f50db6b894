import type { ServerResponse } from 'node:http';
import type { AppointmentStatus, AppointmentSummary, CanChangeResponse, ConsentForm } from '@contract/api/appointments';
import { AppointmentSummarySchema, ConsentFormsResponseSchema } from '@contract/api/appointments';
import { DayPlanSchema, type DayPlan } from '@contract/api/day-plan';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';

export const BOOKING_KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
export const CONSENT_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** A booking as the real server sends it (checked against the contract). */
export function summaryFixture(overrides: Partial<AppointmentSummary> = {}): AppointmentSummary {
  return AppointmentSummarySchema.parse({
    bookingKey: BOOKING_KEY,
    status: 'BOOKED',
    pending: false,
    walkInExam: null,
    appointments: [
      {
        slug: 'a1',
        examSlug: 'mri-knee',
        examName: 'MRI knee',
        modalityName: 'MRI',
        // 09:30 in Sydney (AEDT, UTC+11) on Tuesday 1 December 2026.
        startsAt: '2026-11-30T22:30:00.000Z',
        endsAt: '2026-11-30T23:00:00.000Z',
        preparationNotes: 'Remove all metal before the scan.',
        status: 'BOOKED',
      },
    ],
    clinic: {
      slug: 'parramatta',
      name: 'Parramatta Imaging',
      address: '12 Church Street, Parramatta NSW 2150',
      phone: '02 9000 0000',
      timeZone: 'Australia/Sydney',
      latitude: -33.8151,
      longitude: 151.0011,
      mapUrl: 'https://www.google.com/maps/search/?api=1&query=12%20Church%20Street',
    },
    patient: { title: 'Ms', firstName: 'Lena', lastName: 'Tran', email: 'l***@example.com', contactNumber: '*******006' },
    confirmed: false,
    canConfirm: true,
    emailUnsubscribed: false,
    cancelReasons: [{ label: 'The time no longer suits me' }, { label: 'I am feeling better' }],
    cancelQuestionnaireRequired: false,
    priorMinutes: 1440,
    walkInRescheduleAllowed: false,
    requiredDocument: null,
    documents: [],
    questionnairesDue: { types: [], titles: [] },
    ...overrides,
  });
}

/**
 * The booking's day plan as the real server sends it: the MRI at 09:30 in Sydney on Tuesday
 * 1 December 2026, fasting from 05:30 (already over), arriving at 09:15; one consent form unsigned.
 */
export function dayPlanFixture(overrides: Partial<DayPlan> = {}): DayPlan {
  return DayPlanSchema.parse({
    timeZone: 'Australia/Sydney',
    steps: [
      { kind: 'STOP_EATING', at: '2026-11-30T18:30:00.000Z', past: true, fastingHours: 4 },
      {
        kind: 'DRINK',
        at: '2026-11-30T21:30:00.000Z',
        until: '2026-11-30T22:00:00.000Z',
        past: false,
        amount: '1 litre of water',
        examName: 'MRI knee',
      },
      { kind: 'ARRIVE', at: '2026-11-30T22:15:00.000Z', past: false },
      { kind: 'EXAM', at: '2026-11-30T22:30:00.000Z', past: false, examName: 'MRI knee' },
    ],
    missing: [{ kind: 'CONSENT_FORMS', count: 1 }],
    clinic: {
      name: 'Parramatta Imaging',
      address: '12 Church Street, Parramatta NSW 2150',
      mapUrl: 'https://www.openstreetmap.org/search?query=12%20Church%20Street%2C%20Parramatta%20NSW%202150',
      parking: 'Free parking behind the clinic.',
    },
    ...overrides,
  });
}

export const CONSENT_FORM: ConsentForm = {
  id: CONSENT_ID,
  title: 'MRI safety consent',
  html: '<h2>MRI safety</h2><p>I have told the clinic about any <strong>implant</strong>.</p><img src="x" onerror="window.pwned = true"><script>window.pwned = true</script>',
  signed: false,
  signedName: null,
  signedAt: null,
};

export interface AppointmentServerOptions {
  summary?: AppointmentSummary;
  signedIn?: boolean;
  canCancel?: CanChangeResponse;
  canReschedule?: CanChangeResponse;
  consentForms?: ConsentForm[];
  notifyPatient?: boolean;
  /** GET …/day-plan's answer (its CONSENT_FORMS item goes once every form is signed); null: a 500. */
  dayPlan?: DayPlan | null;
  /** Overrides for single routes, by name. */
  answers?: Partial<
    Record<'cancel' | 'details' | 'confirm' | 'requestReschedule' | 'unsubscribe' | 'sign' | 'summary', (response: ServerResponse) => void>
  >;
}

export interface AppointmentServer {
  routes: Record<string, RouteHandler>;
  /** Every write, in order, with its body. */
  writes: { name: string; body: unknown }[];
  canChangeQueries: string[];
}

const ALLOWED: CanChangeResponse = { canChange: true, reason: null, priorMinutes: 1440 };

/**
 * A stand-in for the self-service API (src-contract/api/appointments.ts) over real HTTP, with the
 * session check of the sign-in API. State changes like the real server's (status per action).
 */
export function appointmentServer(options: AppointmentServerOptions = {}): AppointmentServer {
  let summary = options.summary ?? summaryFixture();
  let forms = options.consentForms ?? [CONSENT_FORM];
  const dayPlan = options.dayPlan === undefined ? dayPlanFixture() : options.dayPlan;
  const writes: AppointmentServer['writes'] = [];
  const canChangeQueries: string[] = [];
  const base = `/api/appointments/${BOOKING_KEY}`;
  const withStatus = (status: AppointmentStatus, extra: Partial<AppointmentSummary> = {}) => {
    summary = { ...summary, status, appointments: summary.appointments.map((appointment) => ({ ...appointment, status })), ...extra };
    return summary;
  };

  const write = (
    name: NonNullable<keyof NonNullable<AppointmentServerOptions['answers']>>,
    handle: (body: unknown, response: ServerResponse) => void,
  ): RouteHandler => {
    return (request, response) => {
      void readJsonBody(request).then((body) => {
        writes.push({ name, body });
        const override = options.answers?.[name];
        if (override) override(response);
        else handle(body, response);
      });
    };
  };

  const routes: Record<string, RouteHandler> = {
    'GET /api/patient-access/session': (_request, response) => {
      if (options.signedIn === false) return json(response, 401, { code: 'unauthorized', message: 'Please sign in.' });
      json(response, 200, { isAuthenticated: true, bookingKey: BOOKING_KEY, type: 'APPOINTMENT', roleTranslations: '{}' });
    },
    [`GET ${base}`]: (_request, response) => {
      const override = options.answers?.summary;
      if (override) return override(response);
      json(response, 200, summary);
    },
    [`GET ${base}/can-change`]: (request, response) => {
      const query = new URL(request.url ?? '/', 'http://x').searchParams.get('action') ?? '';
      canChangeQueries.push(query);
      json(response, 200, query === 'CANCEL' ? (options.canCancel ?? ALLOWED) : (options.canReschedule ?? ALLOWED));
    },
    [`POST ${base}/cancel`]: write('cancel', (_body, response) => json(response, 200, withStatus('CANCELED'))),
    [`POST ${base}/request-reschedule`]: write('requestReschedule', (_body, response) =>
      json(response, 200, withStatus('REQUEST_RESCHEDULE')),
    ),
    [`POST ${base}/confirm`]: write('confirm', (_body, response) => json(response, 200, withStatus('CONFIRMED', { confirmed: true }))),
    [`POST ${base}/unsubscribe`]: write('unsubscribe', (_body, response) => {
      summary = { ...summary, emailUnsubscribed: true };
      json(response, 200, summary);
    }),
    [`GET /api/secured/appointments/${BOOKING_KEY}/day-plan`]: (_request, response) => {
      if (dayPlan === null) return json(response, 500, { code: 'internal', message: 'Something went wrong.' });
      const unsigned = forms.filter((form) => !form.signed).length;
      const missing = dayPlan.missing.filter((item) => item.kind !== 'CONSENT_FORMS' || unsigned > 0);
      json(response, 200, { ...dayPlan, missing });
    },
    [`GET ${base}/consent-forms`]: (_request, response) =>
      json(
        response,
        200,
        ConsentFormsResponseSchema.parse({ appointmentConsentForms: forms, notifyPatient: options.notifyPatient ?? false }),
      ),
    [`PUT ${base}/consent-forms/${CONSENT_ID}`]: write('sign', (body, response) => {
      const { signedName } = body as { signedName: string };
      const signed = { ...CONSENT_FORM, signed: true, signedName, signedAt: '2026-11-23T01:00:00.000Z' };
      forms = forms.map((form) => (form.id === CONSENT_ID ? signed : form));
      json(response, 200, signed);
    }),
    [`POST ${base}/details-change-request`]: write('details', (_body, response) =>
      json(response, 201, { id: 'c0ffee00-0000-4000-8000-000000000001' }),
    ),
  };
  return { routes, writes, canChangeQueries };
}

/** An error answer for the overrides. */
export function answer(status: number, body: unknown): (response: ServerResponse) => void {
  return (response) => json(response, status, body);
}
