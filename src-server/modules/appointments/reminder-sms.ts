/**
 * The reminder as an SMS (docs/rules/reminders.md#by-sms): one line, within two SMS segments: the
 * provider, the first exam, the clinic, when (the clinic's local time), and the appointment page.
 */
export function reminderSmsText(input: {
  providerName: string;
  examName: string;
  clinicName: string;
  startsAt: Date;
  timeZone: string;
  link: string;
}): string {
  const when = new Intl.DateTimeFormat('en-AU', {
    timeZone: input.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(input.startsAt);
  return `${input.providerName}: reminder of your ${input.examName} at ${input.clinicName}, ${when}. To change or cancel: ${input.link}`;
}
