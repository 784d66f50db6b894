import type { AppointmentStatus, ChangeRefusal } from '@contract/api/appointments';
import { appError, conflict, type AppError } from '../../platform/errors';
import { maskEmail } from '../../platform/mask';
import type { BookingRow, SettingsRow } from './repository';

/**
 * Appointment self-service rules as pure functions (docs/rules/appointments.md). A booking is
 * every appointment sharing one booking key; after a reschedule the old rows stay (RESCHEDULED or
 * CHANGED) and the new ones carry the same key, so "current" rows are those not moved away.
 *
 * Cut-off: a cancel or reschedule is allowed only while every live appointment starts MORE than
 * priorMinutes from now; exactly priorMinutes before the start is already too late.
 */

const MINUTE = 60_000;
/** Statuses a patient may cancel, reschedule or confirm from. */
export const CHANGEABLE: ReadonlySet<string> = new Set(['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE']);
/** Moved away: the booking continues in newer rows with the same key. */
export const MOVED: ReadonlySet<string> = new Set(['RESCHEDULED', 'CHANGED']);

export type ChangeAction = 'CANCEL' | 'RESCHEDULE';
/** What the change log records. */
export type ChangeLogAction = 'CANCEL' | 'RESCHEDULE' | 'CHANGE' | 'REQUEST_RESCHEDULE' | 'CONFIRM' | 'UNSUBSCRIBE' | 'REVIEW';

export function changeNotAllowed(
  action: ChangeAction | 'CONFIRM' | 'REQUEST_RESCHEDULE' | 'CONSENT',
  reason: ChangeRefusal,
  priorMinutes: number,
): AppError {
  const messages: Record<ChangeRefusal, string> = {
    PRIOR_MINUTES: `This appointment can no longer be changed online: changes close ${priorMinutes} minutes before the start. Please call the clinic.`,
    APPOINTMENT_CANCELLED: 'This appointment has been cancelled.',
    WALK_IN: 'An appointment with a walk-in exam cannot be rescheduled online. Please call the clinic.',
    OTHER: 'This appointment cannot be changed online. Please call the clinic.',
  };
  const verb = { CANCEL: 'cancelled', RESCHEDULE: 'rescheduled', CONFIRM: 'confirmed', REQUEST_RESCHEDULE: 'changed', CONSENT: 'changed' }[
    action
  ];
  const message = reason === 'OTHER' ? `This appointment cannot be ${verb} online. Please call the clinic.` : messages[reason];
  return appError('change_not_allowed', 409, message, { reason, priorMinutes });
}

/**
 * While the provider requires the cancel questionnaire, the patient cancels only by completing the
 * CANCEL_APPOINTMENT_PATIENT questionnaire (which cancels), never by the plain cancel call.
 * docs/rules/appointments.md#cancel
 */
export function cancelQuestionnaireRequired(): AppError {
  return conflict('Please answer the cancellation questionnaire to cancel this appointment.', {
    questionnaireType: 'CANCEL_APPOINTMENT_PATIENT',
  });
}

/** The rows the booking continues in: all but the moved-away ones (all, when every row moved). */
export function currentRows(rows: readonly BookingRow[]): BookingRow[] {
  const current = rows.filter((row) => !MOVED.has(row.status));
  return current.length > 0 ? current : [...rows];
}

export function overallStatus(current: readonly BookingRow[]): AppointmentStatus {
  const live = current.find((row) => CHANGEABLE.has(row.status) || row.status === 'ON_HOLD' || row.status === 'CHECKED_IN');
  return (live ?? current[0])?.status as AppointmentStatus;
}

/** Why a booking with no live appointment cannot be changed: it was cancelled, or something else ended it. */
export function nothingLive(current: readonly BookingRow[]): 'APPOINTMENT_CANCELLED' | 'OTHER' {
  return current.some((row) => row.status === 'CANCELED') ? 'APPOINTMENT_CANCELLED' : 'OTHER';
}

/**
 * Whether the patient may cancel or reschedule now: null when allowed, else why not.
 * The cut-off compares start - now > priorMinutes (strictly).
 */
export function refusal(rows: readonly BookingRow[], settings: SettingsRow, action: ChangeAction, now: number): ChangeRefusal | null {
  const current = currentRows(rows);
  const live = current.filter((row) => CHANGEABLE.has(row.status));
  if (live.length === 0) return nothingLive(current);
  if (action === 'RESCHEDULE' && !settings.walk_in_reschedule_allowed && live.some((row) => row.walk_in_exam !== null)) return 'WALK_IN';
  if (live.some((row) => row.starts_ms - now <= settings.prior_minutes * MINUTE)) return 'PRIOR_MINUTES';
  return null;
}

/** The patient's e-mail as the summary shows it (see maskEmail), or null when there is none. */
export function maskedEmail(email: string | null): string | null {
  if (email === null || email === '') return null;
  return maskEmail(email);
}

export function maskPhone(phone: string | null): string | null {
  if (phone === null || phone === '') return null;
  const visible = Math.min(3, phone.length - 1);
  return `${'*'.repeat(phone.length - visible)}${phone.slice(phone.length - visible)}`;
}
