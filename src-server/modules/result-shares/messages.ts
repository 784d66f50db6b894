import type { Queryable } from '../../db/connection';
import { mailContext, resultShareMail, type Mail } from '../notifications/public';

/**
 * What a contact receives when a patient shares results (docs/rules/results.md#sharing): who
 * shared what, the patient's note, the link, and what the contact will need. The note is the
 * patient's own words, shown as text (React escapes it), never markup; no result, date of birth
 * or booking key.
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

/**
 * The mail (HTML and text, notifications' resultShareMail) in the provider's look and locale, read
 * in the caller's transaction; the expiry written as the locale writes a date.
 */
export async function shareMailMessage(tx: Queryable, publicUrl: string, input: ShareMessageInput, expiresAt: Date): Promise<Mail> {
  const context = await mailContext(tx, publicUrl);
  const validUntil = expiresAt.toLocaleDateString(context.locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return resultShareMail(
    {
      sharedBy: input.sharedBy,
      contactName: input.contactName,
      history: input.type === 'HISTORY',
      note: input.note,
      link: input.link,
      validUntil,
    },
    context,
  );
}

export function shareSmsText(input: ShareMessageInput): string {
  return `${input.sharedBy} shared ${what(input.type)} with you via ${input.providerName}: ${input.link} (you need their date of birth; valid until ${input.validUntil})`;
}
