import { smsWhen } from '../appointments/public';

/**
 * The offer by SMS (docs/rules/waitlist.md#the-offer), beside its mail: one line in English, as
 * the other SMS, with the times in the clinic's zone. It goes only outside the quiet hours, so
 * the hold ends the same day and its time alone says when.
 */
export function waitlistOfferSmsText(input: {
  providerName: string;
  examName: string;
  clinicName: string;
  startsAt: Date;
  heldUntil: Date;
  timeZone: string;
  link: string;
}): string {
  const until = new Intl.DateTimeFormat('en-AU', { timeZone: input.timeZone, hour: 'numeric', minute: '2-digit' }).format(input.heldUntil);
  const when = smsWhen(input.startsAt, input.timeZone);
  return `${input.providerName}: an earlier time is free for your ${input.examName} at ${input.clinicName}: ${when}. Held for you until ${until}. To take it: ${input.link}`;
}
