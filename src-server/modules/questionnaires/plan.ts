import {
  BOOKING_DECIDING_OUTCOMES,
  OutcomeSchema,
  type Outcome,
  type Questionnaire,
  type QuestionnaireItem,
  type QuestionnaireListResponse,
  type QuestionnaireType,
} from '@contract/api/questionnaires';
import { z } from 'zod';
import { sanitizeConfiguredHtml } from '../../platform/html-sanitizer';
import { type AnswerRow, type ExamInfoRow, type QuestionnaireRow } from './repository';

/** Which questionnaires a booking's exams ask for, and questionnaires as the API answers them. Pure functions. */

const OutcomeListSchema = z.array(OutcomeSchema);

/** SurveyJS properties that are rendered as HTML (the html question, the completed and loading pages). */
const HTML_PROPERTIES = new Set(['html', 'completedHtml', 'completedBeforeHtml', 'loadingHtml']);

/**
 * The questionnaire JSON with every HTML property sanitised (security: HTML from configuration);
 * a localised value ({ default, mk, ... }) has each text sanitised. Everything else is unchanged.
 */
export function sanitizeSurveyJson(value: unknown, key = ''): unknown {
  if (HTML_PROPERTIES.has(key)) {
    if (typeof value === 'string') return sanitizeConfiguredHtml(value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([locale, text]) => [locale, typeof text === 'string' ? sanitizeConfiguredHtml(text) : text]),
      );
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => sanitizeSurveyJson(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, sanitizeSurveyJson(item, name)]));
  }
  return value;
}

/** A questionnaire's outcomes; a list that does not parse counts as none (the seed and tests report it). */
export function outcomesOf(row: QuestionnaireRow): Outcome[] {
  const outcomes = OutcomeListSchema.safeParse(row.outcomes);
  return outcomes.success ? outcomes.data : [];
}

const DECIDING = new Set<string>(BOOKING_DECIDING_OUTCOMES);

/** Whether answers to this questionnaire can refuse, redirect, swap or otherwise change a booking. */
export function decidesBooking(row: QuestionnaireRow): boolean {
  return outcomesOf(row).some((outcome) => DECIDING.has(outcome.type));
}

export function toQuestionnaire(row: QuestionnaireRow): Questionnaire {
  return {
    id: row.id,
    slug: row.slug,
    type: row.type as QuestionnaireType,
    title: row.title,
    json: sanitizeSurveyJson(row.json) as Questionnaire['json'],
    modalSize: row.modal_size as Questionnaire['modalSize'],
    association: row.association as Questionnaire['association'],
    general: row.association === 'GENERAL',
    modalityIds: row.modality_ids,
    examSlugs: row.exam_slugs,
    outcomes: outcomesOf(row),
    css: row.css,
    showClose: row.show_close,
    showClosingConfirmation: row.show_closing_confirmation,
    showPreviousButtonOnLastPageEnabled: row.show_previous_button_on_last_page_enabled,
  };
}

export interface PlannedItem {
  row: QuestionnaireRow;
  scope: string;
  examSlug: string | null;
  examSlugs: string[];
  modalityId: string | null;
  examId: string | null;
}

/** The questionnaires to answer for these exams: GENERAL once, MODALITY per modality, EXAM per exam. */
export function planItems(rows: readonly QuestionnaireRow[], exams: readonly ExamInfoRow[]): PlannedItem[] {
  const items: PlannedItem[] = [];
  for (const row of rows) {
    if (row.association === 'GENERAL') {
      items.push({ row, scope: 'general', examSlug: null, examSlugs: exams.map((exam) => exam.slug), modalityId: null, examId: null });
    } else if (row.association === 'MODALITY') {
      const modalities = [...new Set(exams.map((exam) => exam.modality_id))].filter((id) => row.modality_ids.includes(id));
      for (const modalityId of modalities) {
        const covered = exams.filter((exam) => exam.modality_id === modalityId);
        const first = covered[0];
        if (first === undefined) continue;
        items.push({
          row,
          scope: `modality:${modalityId}`,
          examSlug: first.slug,
          examSlugs: covered.map((exam) => exam.slug),
          modalityId,
          examId: first.id,
        });
      }
    } else {
      for (const exam of exams.filter((item) => row.exam_slugs.includes(item.slug))) {
        items.push({
          row,
          scope: `exam:${exam.id}`,
          examSlug: exam.slug,
          examSlugs: [exam.slug],
          modalityId: exam.modality_id,
          examId: exam.id,
        });
      }
    }
  }
  // GENERAL first, then in questionnaire order.
  return items.sort((a, b) => Number(b.row.association === 'GENERAL') - Number(a.row.association === 'GENERAL'));
}

export function listResponse(bookingKey: string, items: readonly PlannedItem[], answers: readonly AnswerRow[]): QuestionnaireListResponse {
  const answered = new Set(answers.map((answer) => `${answer.questionnaire_id}|${answer.scope}`));
  const questionnaires: QuestionnaireItem[] = items.map((item) => ({
    questionnaire: toQuestionnaire(item.row),
    examSlug: item.examSlug,
    examSlugs: item.examSlugs,
    modalityId: item.modalityId,
    answered: answered.has(`${item.row.id}|${item.scope}`),
  }));
  return { bookingKey, questionnaires, allAnswered: questionnaires.every((item) => item.answered) };
}
