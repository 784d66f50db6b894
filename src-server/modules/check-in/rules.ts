import type { CheckInReadiness, CheckInState } from '@contract/api/check-in';
import type { RisHandoff } from '../../platform/ris/handoff-repository';

/** The check-in rules (docs/rules/check-in.md), free of the database. */

/** Statuses an appointment can be checked in from. */
export const CHECK_IN_STATUSES = ['BOOKED', 'CONFIRMED'];

export const CHECK_IN_TEXTS = {
  disabled: 'Digital check-in is not available for this appointment. Please check in at the front desk.',
  referralMissing: 'Please upload your referral before you check in.',
  notLive: 'This appointment cannot be checked in.',
  outOfWindow: (priorMinutes: number) =>
    `Check-in opens ${priorMinutes} minutes before your appointment and closes when it starts. Please check in at the front desk if it has passed.`,
  notPrepared: 'Your details are still on their way to the clinic. Please wait a moment.',
  simpleMode: 'This clinic does not ask for check-in details: confirm your check-in instead.',
} as const;

/** Check-in opens priorMinutes before the start and closes at the start. */
export function checkInWindow(startsAt: Date, priorMinutes: number, now: Date): { opensAt: Date; closesAt: Date; open: boolean } {
  const opensAt = new Date(startsAt.getTime() - priorMinutes * 60_000);
  return { opensAt, closesAt: startsAt, open: now >= opensAt && now < startsAt };
}

export function readiness(input: {
  enabled: boolean;
  live: boolean;
  referralRequired: boolean;
  referralUploaded: boolean;
  referralTypeId: string | null;
}): CheckInReadiness {
  const referralOk = !input.referralRequired || input.referralUploaded;
  const message = !input.enabled
    ? CHECK_IN_TEXTS.disabled
    : !input.live
      ? CHECK_IN_TEXTS.notLive
      : !referralOk
        ? CHECK_IN_TEXTS.referralMissing
        : null;
  return {
    ready: message === null,
    requiredReferralUploaded: referralOk,
    documentTypeId: referralOk ? null : input.referralTypeId,
    message,
  };
}

/** Where the hand-off stands, from its rows (and the appointment's status). */
export function checkInState(handoffs: readonly RisHandoff[], appointmentStatus: string): CheckInState {
  if (appointmentStatus === 'CHECKED_IN') return 'CHECKED_IN';
  if (handoffs.some((handoff) => handoff.status === 'failed')) return 'FAILED';
  const checkIn = handoffs.find((handoff) => handoff.kind === 'check_in');
  if (checkIn !== undefined) return checkIn.status === 'sent' ? 'CHECKED_IN' : 'CHECKING_IN';
  const prepare = handoffs.find((handoff) => handoff.kind === 'prepare_check_in');
  if (prepare === undefined) return 'NOT_STARTED';
  return prepare.status === 'sent' ? 'PREPARED' : 'PREPARING';
}
