/**
 * What a contact receives when a patient shares results (docs/rules/results.md#sharing): who
 * shared what, the patient's note, the link, and what the contact will need. Plain text only
 * (the note is the patient's own words, never markup); no result, date of birth or booking key.
 */

export interface ShareMessageInput {
  providerName: string;
  /** "Liam E." */
  sharedBy: string;
  contactName: string | null;
  type: 'RESULT' | 'HISTORY';
  note: string | null;
  link: string;
  /** e.g. "24 December 2026". */
  validUntil: string;
}

const what = (type: 'RESULT' | 'HISTORY'): string => (type === 'RESULT' ? 'a radiology result' : 'their radiology history');

export function shareMailText(input: ShareMessageInput): { subject: string; text: string } {
  return {
    subject: `${input.providerName}: ${input.sharedBy} has shared ${what(input.type)} with you`,
    text: [
      `Hello${input.contactName === null ? '' : ` ${input.contactName}`},`,
      '',
      `${input.sharedBy} has shared ${what(input.type)} with you through the ${input.providerName} patient portal.`,
      ...(input.note === null ? [] : ['', `Their note: ${input.note}`]),
      '',
      `Open it here: ${input.link}`,
      '',
      `You will need ${input.sharedBy}'s date of birth, and we will send a verification code to this address.`,
      `The link works until ${input.validUntil}, unless ${input.sharedBy} withdraws it sooner.`,
      `If you do not know ${input.sharedBy}, you can ignore this e-mail.`,
      '',
    ].join('\n'),
  };
}

export function shareSmsText(input: ShareMessageInput): string {
  return `${input.sharedBy} shared ${what(input.type)} with you via ${input.providerName}: ${input.link} (you need their date of birth; valid until ${input.validUntil})`;
}
