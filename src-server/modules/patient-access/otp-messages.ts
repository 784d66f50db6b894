/**
 * The texts that carry a one-time password. They name the provider and the lifetime and warn
 * against sharing the code; they never hold the booking key, the date of birth or a name.
 */

export function otpMailText(input: { code: string; providerName: string; validMinutes: number }): { subject: string; text: string } {
  return {
    subject: `${input.providerName}: your verification code`,
    text: [
      `Your ${input.providerName} verification code is ${input.code}.`,
      '',
      `It is valid for ${input.validMinutes} minutes and can be used once.`,
      'If you did not try to sign in to your booking, you can ignore this e-mail. Never share this code with anyone.',
      '',
    ].join('\n'),
  };
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
