/**
 * The SMS of reminders and of the answers to their replies (docs/rules/reminders.md#by-sms), in
 * English as the other SMS: one line each, within two SMS segments; times in the clinic's zone.
 */

/** "Wed, 18 Mar, 11:00 am" in the clinic's time zone. */
export function smsWhen(startsAt: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-AU', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(startsAt);
}

export interface SmsAppointment {
  providerName: string;
  examName: string;
  clinicName: string;
  startsAt: Date;
  timeZone: string;
}

/** The reminder: the provider, the first exam, the clinic, when, how to answer (with SMS replies taken) and the appointment page. */
export function reminderSmsText(input: SmsAppointment & { link: string; takesReplies?: boolean }): string {
  const answer = input.takesReplies === true ? ' Reply YES to confirm or NO to cancel.' : '';
  const what = `${input.examName} at ${input.clinicName}, ${smsWhen(input.startsAt, input.timeZone)}`;
  return `${input.providerName}: reminder of your ${what}.${answer} To change or cancel: ${input.link}`;
}

/** What an SMS reply did, told back to the patient. */
export type SmsReplyAnswer =
  | {
      kind: 'confirmed' | 'cancelled' | 'waiting' | 'not_possible' | 'not_understood';
      appointment: SmsAppointment;
      phone: string | null;
      bookAgain: string;
    }
  | { kind: 'no_reminder'; providerName: string };

export function replyAnswerSmsText(answer: SmsReplyAnswer): string {
  if (answer.kind === 'no_reminder')
    return `${answer.providerName}: we could not match your reply to an appointment. Please call the clinic.`;
  const { appointment: a, phone } = answer;
  const when = smsWhen(a.startsAt, a.timeZone);
  const what = `your ${a.examName} at ${a.clinicName}, ${when}`;
  const call = phone === null ? 'Please call the clinic.' : `Please call the clinic on ${phone}.`;
  switch (answer.kind) {
    case 'confirmed':
      return `${a.providerName}: thank you, ${what} is confirmed.`;
    case 'cancelled':
      return `${a.providerName}: ${what} is cancelled. To book again: ${answer.bookAgain}`;
    case 'waiting':
      return `${a.providerName}: ${what} is still waiting for the clinic to confirm it; we will let you know.`;
    case 'not_possible':
      return `${a.providerName}: ${what} can no longer be changed by SMS. ${call}`;
    case 'not_understood':
      return `${a.providerName}: sorry, we did not understand your reply. Reply YES to confirm ${what}, or NO to cancel it. Or ${call.charAt(0).toLowerCase()}${call.slice(1)}`;
  }
}
