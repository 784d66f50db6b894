import { dueQuestionnairesPath, type DueQuestionnaires } from '@contract/api/questionnaires';
import type { Queryable } from '../../db/connection';
import { dueQuestionnaires } from '../questionnaires/public';

/** What a mail lists of the questionnaires due: their titles and the /q link that answers them. */
export interface DueQuestionnairesLink {
  titles: string[];
  link: string;
}

/**
 * The mail's link to the due questionnaires on /q, back to `target` (a path of this portal) when
 * they are answered; null when none is due (docs/rules/questionnaires.md#due).
 */
export function dueQuestionnairesLink(
  publicUrl: string,
  bookingKey: string,
  due: DueQuestionnaires | undefined,
  target: string,
): DueQuestionnairesLink | null {
  if (due === undefined || due.types.length === 0) return null;
  return { titles: due.titles, link: `${publicUrl.replace(/\/+$/, '')}${dueQuestionnairesPath(bookingKey, due, target)}` };
}

/**
 * The after-visit questionnaires (pain score after, feedback) the results mail links, read when the
 * mail is queued: due from the visit's start for DUE_AFTER_VISIT_DAYS and not answered yet. After
 * answering, the patient lands on the results page the mail is about.
 */
export async function afterVisitQuestionnairesLink(
  q: Queryable,
  visit: { bookingKey: string; startsAt: string; resultPath: string },
  now: Date,
  publicUrl: string,
): Promise<DueQuestionnairesLink | null> {
  const due = await dueQuestionnaires(q, { bookingKey: visit.bookingKey, startsAt: new Date(visit.startsAt), live: true }, now);
  return dueQuestionnairesLink(publicUrl, visit.bookingKey, due, visit.resultPath);
}
