import { localDate } from '../../platform/time-zone';
import { referralWarning } from '../attachments/public';
import type { CandidateRow } from './repository';

/**
 * Whether a freed time suits a waiting booking (docs/rules/waitlist.md#who-is-offered), beyond
 * what the query already asked (the same clinic, a later start, not offered this time before) and
 * what holding it decides (the exams offered at that time, a free resource):
 * - preparation: the longest of its exams' fasting and medication stops, counted back from the
 *   freed start, must not have begun before the offer ends (the patient could not have prepared);
 * - referral: a referral uploaded with the booking must be valid on the freed date (not dated
 *   after it, not older than the provider's validity).
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;

export type NoFit = 'preparation' | 'referral';

export function misfit(
  candidate: CandidateRow,
  freed: { startsAt: string; timeZone: string },
  now: Date,
  offerMinutes: number,
): NoFit | null {
  const start = new Date(freed.startsAt).getTime();
  const preparationHours = Math.max(candidate.fastingHours ?? 0, candidate.medicationStopHours ?? 0);
  if (start - preparationHours * HOUR < now.getTime() + offerMinutes * MINUTE) return 'preparation';
  const day = localDate(new Date(start), freed.timeZone);
  if (referralWarning(candidate.referralDate, day, candidate.referralValidityMonths) !== null) return 'referral';
  return null;
}
