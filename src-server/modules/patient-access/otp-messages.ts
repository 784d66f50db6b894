import type { Queryable } from '../../db/connection';
import { mailContext, otpMail, type Mail } from '../notifications/public';

/**
 * The texts that carry a one-time password. They name the provider and the lifetime and warn
 * against sharing the code; they never hold the booking key, the date of birth or a name.
 */

/** The mail (HTML and text, notifications' otpMail) in the provider's look and locale, read in the caller's transaction. */
export async function otpMailMessage(tx: Queryable, input: { code: string; validMinutes: number }): Promise<Mail> {
  // No portal address here: the mail needs none (no link, so nothing to follow from a phishing copy).
  return otpMail({ code: input.code, validMinutes: input.validMinutes }, await mailContext(tx, ''));
}

export function otpSmsText(input: { code: string; providerName: string; validMinutes: number }): string {
  return `${input.code} is your ${input.providerName} verification code. Valid ${input.validMinutes} min. Do not share it.`;
}

/** "*******006": every digit but the last three hidden. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 3) return '*'.repeat(digits.length);
  return `${'*'.repeat(digits.length - 3)}${digits.slice(-3)}`;
}
