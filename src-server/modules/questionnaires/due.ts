import { DUE_AFTER_VISIT, DUE_AFTER_VISIT_DAYS, DUE_BEFORE_VISIT, type DueQuestionnaires } from '@contract/api/questionnaires';
import type { Queryable } from '../../db/connection';
import { listResponse, planItems } from './plan';
import { createQuestionnairesRepository } from './repository';

const DAY_MS = 86_400_000;

/**
 * The questionnaires a booking's patient should answer now (docs/rules/questionnaires.md#due),
 * so the confirmation, the appointment page and the mails can link them: before the first visit
 * starts, "Before your visit" and the pain score before; from its start for DUE_AFTER_VISIT_DAYS,
 * the pain score after and the feedback. Only those that apply to the booking's exams and are
 * not answered yet; none for a booking that is no longer live.
 */
export async function dueQuestionnaires(
  q: Queryable,
  booking: { bookingKey: string; startsAt: Date; live: boolean },
  now: Date,
): Promise<DueQuestionnaires> {
  const none: DueQuestionnaires = { types: [], titles: [] };
  if (!booking.live) return none;
  const elapsed = now.getTime() - booking.startsAt.getTime();
  const types = elapsed < 0 ? DUE_BEFORE_VISIT : elapsed <= DUE_AFTER_VISIT_DAYS * DAY_MS ? DUE_AFTER_VISIT : [];
  if (types.length === 0) return none;
  const repository = createQuestionnairesRepository(q);
  const exams = await repository.ownerExams('APPOINTMENT', booking.bookingKey, q);
  if (exams.length === 0) return none;
  const list = listResponse(
    booking.bookingKey,
    planItems(await repository.byTypes(types, q), exams),
    await repository.answers('APPOINTMENT', booking.bookingKey, q),
  );
  const open = list.questionnaires.filter((item) => !item.answered);
  return {
    types: types.filter((type) => open.some((item) => item.questionnaire.type === type)),
    titles: [...new Set(open.map((item) => item.questionnaire.title))],
  };
}
