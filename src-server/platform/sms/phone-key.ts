import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { normalisePhoneNumber } from './sms-outbox-repository';

/**
 * One spelling per phone number, so an SMS reply (its sender in E.164, +61412345678) finds the
 * reminder sent to the number as the patient typed it (0412 345 678): E.164 when the number is a
 * possible one of its own country code or of `country`, else its digits as written (then only
 * the same spelling matches).
 */
export function phoneKey(raw: string, country: CountryCode): string | null {
  const written = normalisePhoneNumber(raw);
  if (written === null) return null;
  const parsed = parsePhoneNumberFromString(written, country);
  return parsed !== undefined && parsed.isPossible() ? parsed.number : written;
}
