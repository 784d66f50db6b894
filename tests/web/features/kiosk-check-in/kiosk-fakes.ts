import type { AppointmentSummary, ConsentForm, SignConsentForm } from '@contract/api/appointments';
import type { QuestionnaireItem, QuestionnaireType } from '@contract/api/questionnaires';
import type { CheckInStatus } from '@contract/api/check-in';
import type { CheckInIdentityResponse, KioskIdentity } from '@contract/api/kiosks';
import { ApiError } from '../../../../src-web/api/client';
import type { KioskCheckInDeps } from '../../../../src-web/features/kiosk-check-in/kiosk-check-in-store';
import { summaryFixture } from '../appointments/appointment-fixtures';
import { statusFixture } from '../check-in/check-in-fixtures';
import { questionnaireDefinition } from '../questionnaires/questionnaire-fixtures';

/** Stand-ins for the APIs the kiosk stores call, recording what they were asked. */

export const KEY = 'KsK7qLobbyAvaN3wQx5TzA';
export const CLINIC: KioskIdentity = { name: 'Parramatta lobby 1', clinicSlug: 'parramatta', clinicName: 'Parramatta Imaging' };

export const notEnrolled = () => new ApiError('http', 401, 'kiosk_not_enrolled', 'This kiosk needs to be enrolled again');

export function found(overrides: Partial<CheckInIdentityResponse> = {}): CheckInIdentityResponse {
  return { appointmentBookingKeys: [KEY], samePatient: true, feedbackQuestionnaireAnswered: true, disabledReason: null, ...overrides };
}

/**
 * A booking with one appointment today (in 20 minutes, or at 23:59 when that would be tomorrow:
 * the test must not depend on the hour it runs) and one tomorrow, at a clinic in the browser's zone.
 */
export function summaryToday(): AppointmentSummary {
  const lastMinuteToday = new Date();
  lastMinuteToday.setHours(23, 59, 0, 0);
  const soon = new Date(Math.min(Date.now() + 20 * 60_000, lastMinuteToday.getTime()));
  const tomorrow = new Date(Date.now() + 26 * 3600_000);
  const item = (slug: string, at: Date) => ({
    slug,
    examSlug: 'xr-chest',
    examName: 'X-ray chest',
    modalityName: 'X-ray',
    startsAt: at.toISOString(),
    endsAt: new Date(at.getTime() + 10 * 60_000).toISOString(),
    preparationNotes: '',
    status: 'BOOKED' as const,
  });
  const booking = summaryFixture();
  return {
    ...booking,
    bookingKey: KEY,
    appointments: [item('a1', soon), item('a2', tomorrow)],
    clinic: { ...booking.clinic, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    patient: { title: 'Ms', firstName: 'Ava', lastName: 'Lobbyton', email: 'a***@example.com', contactNumber: null },
    canConfirm: false,
    cancelReasons: [],
  };
}

export interface FakeCalls {
  identity: unknown[];
  authenticate: unknown[];
  sendOtp: unknown[];
  verifyOtp: string[];
  checkIn: string[];
  status: string[];
  revoked: number;
  /** Consent signatures sent: form id and body. */
  signed: Array<{ id: string; body: SignConsentForm }>;
  /** The types each questionnaire load asked for. */
  questionnaireTypes: Array<readonly QuestionnaireType[] | undefined>;
}

export interface FakeOptions {
  identity?: () => Promise<CheckInIdentityResponse>;
  otpRequired?: boolean;
  verify?: (code: string) => Promise<void>;
  checkIn?: (slug: string) => Promise<CheckInStatus>;
  /** Answers of successive status polls. */
  polls?: CheckInStatus[];
  /** The app config's giveFeedback (off unless a test turns it on). */
  giveFeedback?: boolean;
  /** The channels the sign-in offers for the code (SMS and e-mail unless a test says otherwise). */
  otpChannels?: Array<'SMS' | 'EMAIL'>;
  /** The booking's consent forms (none unless a test gives some). */
  consentForms?: ConsentForm[];
  /** The answer to a consent signature (the form signed unless a test says otherwise). */
  sign?: (id: string, body: SignConsentForm) => Promise<ConsentForm>;
  /** The booking's questionnaires due before the visit (none unless a test gives some). */
  questionnaires?: QuestionnaireItem[];
}

export function fakeDeps(options: FakeOptions = {}): { deps: KioskCheckInDeps; calls: FakeCalls } {
  const calls: FakeCalls = {
    identity: [],
    authenticate: [],
    sendOtp: [],
    verifyOtp: [],
    checkIn: [],
    status: [],
    revoked: 0,
    signed: [],
    questionnaireTypes: [],
  };
  const forms = options.consentForms ?? [];
  const polls = [...(options.polls ?? [])];
  const deps = {
    kiosk: {
      me: async () => CLINIC,
      enroll: async () => CLINIC,
      identity: async (body: unknown) => {
        calls.identity.push(body);
        return (options.identity ?? (async () => found()))();
      },
      checkIn: async (bookingKey: string, slug: string) => {
        calls.checkIn.push(`${bookingKey}/${slug}`);
        return (options.checkIn ?? (async (s: string) => statusFixture({ appointmentSlug: s, state: 'CHECKING_IN', checkInSent: true })))(
          slug,
        );
      },
    },
    patientAccess: {
      session: async () => ({ isAuthenticated: true as const, bookingKey: KEY, type: 'APPOINTMENT' as const, roleTranslations: '' }),
      authenticate: async (body: unknown) => {
        calls.authenticate.push(body);
        return { otpRequired: options.otpRequired ?? true, otpChannels: options.otpChannels ?? ['SMS', 'EMAIL'], roleTranslations: '' };
      },
      sendOtp: async (channel: unknown) => {
        calls.sendOtp.push(channel);
        return { resendAfterSeconds: 5, destination: 'a***@example.com' };
      },
      verifyOtp: async (code: string) => {
        calls.verifyOtp.push(code);
        await (options.verify ?? (async () => undefined))(code);
        return { isAuthenticated: true as const, bookingKey: KEY, type: 'APPOINTMENT' as const, roleTranslations: '' };
      },
      logout: async () => undefined,
    },
    appointments: {
      summary: async () => summaryToday(),
      consentForms: async () => ({ appointmentConsentForms: forms, notifyPatient: false }),
      signConsentForm: async (_key: string, id: string, body: SignConsentForm) => {
        calls.signed.push({ id, body });
        const form = forms.find((candidate) => candidate.id === id);
        if (options.sign) return options.sign(id, body);
        return { ...form, signed: true, signedName: body.signedName, signedAt: new Date().toISOString() };
      },
    },
    questionnaires: {
      forAppointment: async (_key: string, types?: readonly QuestionnaireType[]) => {
        calls.questionnaireTypes.push(types);
        return { questionnaires: options.questionnaires ?? [], answers: [] };
      },
    },
    checkIn: {
      status: async (_key: string, slug: string) => {
        calls.status.push(slug);
        const next = polls.shift();
        if (!next) throw new ApiError('network', 0, 'service_unavailable', 'no answer');
        return next;
      },
    },
    today: () => '2026-11-25',
    resendSeconds: () => 5,
    giveFeedback: () => options.giveFeedback ?? false,
    onKioskRevoked: () => {
      calls.revoked += 1;
    },
    pollMs: 5,
  };
  // Only the calls the store makes are faked; the rest of each API is never reached.
  return { deps: deps as unknown as KioskCheckInDeps, calls };
}

/** An unsigned consent form. */
export function consentForm(id: string, title = `Form ${id}`): ConsentForm {
  return { id, title, html: `<p>${title} text</p>`, signed: false, signedName: null, signedAt: null };
}

/** An unanswered questionnaire of `type`. */
export function questionnaireItem(id: string, type: QuestionnaireType = 'REQUIRED_ON_CONFIRMATION'): QuestionnaireItem {
  return {
    questionnaire: questionnaireDefinition({
      id,
      slug: `q-${id}`,
      type,
      title: `Questionnaire ${id}`,
      json: { elements: [{ type: 'text', name: 'q1', title: 'Question' }] },
      showClose: true,
    }),
    examSlug: null,
    examSlugs: [],
    modalityId: null,
    answered: false,
  };
}
