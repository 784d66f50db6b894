import type { AppointmentSummary, ChangeRefusal } from '@contract/api/appointments';
import { ApiError } from '../../api/client';
import type { Loader } from '../../platform/load-state';

/** The one dialog open on the appointment page. */
export type AppointmentDialog =
  /** Cancel refused: the information dialog naming the prior-minutes limit. */
  | { kind: 'cancelNotAllowed'; priorMinutes: number }
  /** Yes/no: cancel this appointment? */
  | { kind: 'cancelConfirm' }
  /** The cancel-reason dialog (reasons are configured). */
  | { kind: 'cancelReason' }
  /** Reschedule or change refused, with why. */
  | { kind: 'rescheduleNotAllowed'; reason: ChangeRefusal; priorMinutes: number }
  /** Yes/no: ask the clinic to reschedule? */
  | { kind: 'requestRescheduleConfirm' }
  /** A consent form to read and sign. */
  | { kind: 'consent'; formId: string }
  /** Some consent forms wait for a signature (the provider's notifyPatient). */
  | { kind: 'consentNotification' }
  | { kind: 'detailsChange' }
  | { kind: 'detailsChangeSuccess' }
  /** The server's message, or '' for the default text. */
  | { kind: 'detailsChangeError'; message: string }
  /** Any other failed action: the server's message, or '' for the default text. */
  | { kind: 'error'; message: string };

/** A short success line after an action, as a translation choice. */
export type AppointmentNotice = 'cancelled' | 'confirmed' | 'unsubscribed' | 'requestedReschedule' | 'moved' | 'consentSigned';

/**
 * What the page's actions share: the booking, its summary, the one dialog, the busy flag and
 * the success line. The AppointmentStore is this; its parts (cancel, reschedule, consent
 * forms, details change) act on it.
 */
export interface AppointmentPageState {
  bookingKey: string | null;
  summary: AppointmentSummary | null;
  /** The page's load (a move's answer is the summary loaded anew). */
  readonly loader: Loader;
  dialog: AppointmentDialog | null;
  busy: boolean;
  notice: AppointmentNotice | null;
  /** Runs one summary-returning call: busy meanwhile, then the summary and the notice, or the error dialog. */
  run(call: (bookingKey: string) => Promise<AppointmentSummary>, notice: AppointmentNotice): Promise<void>;
  /** A failed action: 401 went to sign-in already; anything else opens the error dialog. */
  failed(error: unknown): void;
  /** Navigates inside the current layout (/iframe stays /iframe). */
  navigate(target: string, replace?: boolean): void;
}

export function isEmbedded(url: string): boolean {
  return url === '/iframe' || url.startsWith('/iframe/') || url.startsWith('/iframe?');
}

export function changeRefusal(error: unknown): { reason: ChangeRefusal; priorMinutes: number } | null {
  if (!(error instanceof ApiError) || error.code !== 'change_not_allowed') return null;
  const details = error.details;
  const reason = typeof details === 'object' && details !== null && 'reason' in details ? details.reason : null;
  const priorMinutes = typeof details === 'object' && details !== null && 'priorMinutes' in details ? details.priorMinutes : 0;
  const known: readonly ChangeRefusal[] = ['PRIOR_MINUTES', 'APPOINTMENT_CANCELLED', 'WALK_IN', 'OTHER'];
  const match = known.find((candidate) => candidate === reason) ?? 'OTHER';
  return { reason: match, priorMinutes: typeof priorMinutes === 'number' ? priorMinutes : 0 };
}
