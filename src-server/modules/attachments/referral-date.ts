import type { ReferralWarning } from '@contract/api/attachments';

/**
 * A referral's date, checked at upload (docs/rules/attachments.md#referral-date): a date after
 * today (in the provider's time zone) is FUTURE; one older than the provider's validity (default
 * 12 months) is EXPIRED. The upload is kept either way; the warning tells the patient plainly, and
 * staff can override it.
 */

export const REFERRAL_WARNING_MESSAGES: Record<ReferralWarning, (validityMonths: number) => string> = {
  FUTURE: () => 'The referral date is in the future. Please check the date on your referral.',
  EXPIRED: (months) =>
    `This referral is more than ${months} months old, so it may no longer be valid. Please ask your doctor for a new referral, or our staff will check it with you.`,
};

/** Adds whole calendar months to a YYYY-MM-DD date, clamping to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** @param today - YYYY-MM-DD in the provider's time zone. */
export function referralWarning(referralDate: string | null, today: string, validityMonths: number): ReferralWarning | null {
  if (referralDate === null) return null;
  if (referralDate > today) return 'FUTURE';
  // Valid up to and including the same day `validityMonths` later.
  if (addMonths(referralDate, validityMonths) < today) return 'EXPIRED';
  return null;
}
