import {
  MAX_FEEDBACK_EXPORT_ROWS,
  type FeedbackEntry,
  type FeedbackFilter,
  type FeedbackListQuery,
  type FeedbackListResponse,
  type FeedbackQuestionLabel,
  type FeedbackQuestionnaireResponse,
  type FeedbackRequest,
  type FeedbackSavedResponse,
  type FeedbackSummaryRow,
} from '@contract/api/referrer-feedback';
import { createAuditLogRepository, linkRefusedEntry } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { localDate } from '../../platform/time-zone';
import { appError, badRequest, notFound, validationError } from '../../platform/errors';
import type { SignedLinks } from '../../platform/signed-links';
import { checkAnswer, loadModel } from '../questionnaires/public';
import { checkImageLink } from '../results/public';
import { feedbackCsv, feedbackCsvFileName } from './export-csv';
import { createReferrerFeedbackRepository, type FeedbackListRow, type FeedbackReportRow, type SummaryRow } from './repository';

/**
 * Report-quality feedback by the referring doctor (docs/rules/referrers.md#report-quality-feedback):
 * the provider's switch first, then whose report it is (the referrer's imsec, or a signed-in
 * referrer naming the accession number of a report they referred), then the questionnaire or the
 * answer, once per report.
 */

export interface ReferrerFeedbackDeps {
  db: Database;
  clock: Clock;
  signedLinks: () => Promise<SignedLinks>;
  /** The provider's switch (application config referrerReportQualityFeedbackEnabled). */
  enabled: () => Promise<boolean>;
  /** The most rows one CSV export holds; MAX_FEEDBACK_EXPORT_ROWS unless a test needs a small one. */
  maxExportRows?: number;
}

/** Who asks: the holder of a referrer imsec, or a signed-in referrer (a staff session with the referrer role). */
export type FeedbackCredential =
  { kind: 'imsec'; imsec: string } | { kind: 'session'; accessionNumber: string; subjectRef: string; providerNumber: string | null };

interface Target {
  report: FeedbackReportRow;
  givenVia: 'imsec' | 'session';
  givenBy: string;
}

export const FEEDBACK_DISABLED_MESSAGE = 'Report feedback is not available.';
export const FEEDBACK_NO_ACCESS_MESSAGE = 'This feedback link is not valid.';
export const FEEDBACK_ALREADY_PROVIDED_MESSAGE = 'feedback already provided';
const NO_REPORT_MESSAGE = 'There is no report of yours with this accession number.';
const NO_QUESTIONNAIRE_MESSAGE = 'No feedback questionnaire is configured.';

/** Rating questions (their answers are averaged in the staff summary), from every definition. */
function ratingQuestions(definitions: readonly Record<string, unknown>[]): string[] {
  const names = new Set<string>();
  for (const json of definitions) {
    for (const question of loadModel(json).getAllQuestions(false)) if (question.getType() === 'rating') names.add(question.name);
  }
  return [...names].sort();
}

/**
 * The questions' titles and choice words, from every definition (the first definition naming a
 * question wins), so staff read "How clear was the report?" rather than "clarity".
 */
function questionLabels(definitions: readonly Record<string, unknown>[]): FeedbackQuestionLabel[] {
  const labels = new Map<string, FeedbackQuestionLabel>();
  for (const json of definitions) {
    for (const question of loadModel(json).getAllQuestions(false)) {
      if (labels.has(question.name)) continue;
      const choices = Array.isArray(question.choices) ? (question.choices as { value: unknown; text: string }[]) : [];
      labels.set(question.name, {
        name: question.name,
        title: question.title,
        rating: question.getType() === 'rating',
        choices: Object.fromEntries(choices.map((choice) => [String(choice.value), choice.text])),
      });
    }
  }
  return [...labels.values()];
}

/** A score sort names a rating question of the questionnaires; anything else is a 400 saying which may be sorted. */
function checkSort(filter: FeedbackFilter, ratings: readonly string[]): void {
  if (!filter.sort.startsWith('score:')) return;
  const question = filter.sort.slice('score:'.length);
  if (ratings.includes(question)) return;
  const message = `There is no rating question "${question}" to sort by; sort by date, referrer or one of: ${ratings.map((name) => `score:${name}`).join(', ')}.`;
  throw badRequest(message, [{ in: 'querystring/sort', message }], 'validation_failed');
}

function entryOf(row: FeedbackListRow): FeedbackEntry {
  return {
    id: row.id,
    reportId: row.report_id,
    accessionNumber: row.accession_number,
    referrerName: row.referrer_name,
    referrerProviderNumber: row.referrer_provider_number,
    modalityCode: row.modality_code,
    modalityName: row.modality_name,
    examName: row.exam_name,
    patientName: row.patient_name,
    givenVia: row.given_via,
    answers: row.answers,
    createdAt: row.created_at,
  };
}

function summaryRows(rows: readonly SummaryRow[]): FeedbackSummaryRow[] {
  const groups = new Map<string, FeedbackSummaryRow>();
  for (const row of rows) {
    const group = groups.get(row.key) ?? { key: row.key, label: row.label, count: row.count, averages: {} };
    if (row.question !== null) group.averages[row.question] = row.average === null ? null : Math.round(row.average * 100) / 100;
    groups.set(row.key, group);
  }
  return [...groups.values()];
}

export function createReferrerFeedback(deps: ReferrerFeedbackDeps) {
  const { db, clock } = deps;
  const maxExportRows = deps.maxExportRows ?? MAX_FEEDBACK_EXPORT_ROWS;
  const repository = createReferrerFeedbackRepository(db);
  const audit = createAuditLogRepository(db);

  async function refuse(reason: string, now: Date): Promise<never> {
    await audit.record(linkRefusedEntry('referrer_feedback.refused', reason, now));
    throw appError('forbidden', 403, FEEDBACK_NO_ACCESS_MESSAGE);
  }

  /** The flag, then the credential: an expired, changed or patient's imsec is a 403, audited. */
  async function targetOf(credential: FeedbackCredential): Promise<Target> {
    const now = clock.now();
    if (!(await deps.enabled())) throw appError('referrer_feedback_disabled', 403, FEEDBACK_DISABLED_MESSAGE);
    if (credential.kind === 'imsec') {
      const checked = checkImageLink(await deps.signedLinks(), credential.imsec, ['referrer']);
      if (!checked.ok) return refuse(checked.reason, now);
      const report = await repository.reportById(checked.reportId);
      if (report === null) return refuse('report_not_found', now);
      return { report, givenVia: 'imsec', givenBy: checked.tokenId };
    }
    const report = await repository.reportByAccession(credential.accessionNumber);
    // Another referrer's report answers as a missing one: the accession number is no oracle.
    if (report === null || credential.providerNumber === null || report.referrer_provider_number !== credential.providerNumber) {
      await audit.record({
        actor: credential.subjectRef,
        action: 'referrer_feedback.refused',
        subjectType: null,
        subjectId: null,
        details: { reason: report === null ? 'report_not_found' : 'not_the_referrer' },
        now,
      });
      throw notFound(NO_REPORT_MESSAGE);
    }
    return { report, givenVia: 'session', givenBy: credential.subjectRef };
  }

  async function activeQuestionnaire() {
    const questionnaire = await repository.activeQuestionnaire();
    if (questionnaire === null) throw notFound(NO_QUESTIONNAIRE_MESSAGE);
    return questionnaire;
  }

  return {
    /** The questionnaire for the report, or alreadyProvided with none. */
    async questionnaire(credential: FeedbackCredential): Promise<FeedbackQuestionnaireResponse> {
      const { report } = await targetOf(credential);
      if (await repository.hasFeedback(report.id)) return { alreadyProvided: true, questionnaire: null };
      const row = await activeQuestionnaire();
      return {
        alreadyProvided: false,
        questionnaire: {
          questionnaireId: row.id,
          modalSize: row.modal_size,
          examSlugs: [report.exam_slug],
          modalityIds: [report.modality_id],
          questionnaire: row.json,
          report: { patientName: report.patient_name, examName: report.exam_name, reportedAt: report.reported_at },
        },
      };
    },

    /** Saves the answer, checked against the questionnaire; a second one is 409 feedback_already_provided. */
    async submit(credential: FeedbackCredential, body: FeedbackRequest): Promise<FeedbackSavedResponse> {
      const target = await targetOf(credential);
      const row = await activeQuestionnaire();
      if (row.id !== body.questionnaireId) throw validationError('questionnaireId', 'This questionnaire cannot be answered here.');
      const data = checkAnswer(row.json, body.questionnaireResult, new Map());
      const now = clock.now();
      const saved = await db.transaction(async (tx) => {
        const inserted = await repository.insert(
          { reportId: target.report.id, questionnaireId: row.id, answers: data, givenVia: target.givenVia, givenBy: target.givenBy },
          now,
          tx,
        );
        if (inserted !== null) {
          await audit.record(
            {
              actor: target.givenVia === 'imsec' ? 'referrer' : target.givenBy,
              action: 'referrer_feedback.given',
              subjectType: 'result_report',
              subjectId: target.report.id,
              details: { via: target.givenVia, ...(target.givenVia === 'imsec' ? { tokenId: target.givenBy } : {}) },
              now,
            },
            tx,
          );
        }
        return inserted;
      });
      if (saved === null) throw appError('feedback_already_provided', 409, FEEDBACK_ALREADY_PROVIDED_MESSAGE);
      return { id: saved.id, createdAt: saved.created_at };
    },

    /** Staff: one page of the filter, the summaries of what it keeps, and the filter's choices. */
    async list(query: FeedbackListQuery): Promise<FeedbackListResponse> {
      const definitions = await repository.allQuestionnaireDefinitions();
      const ratings = ratingQuestions(definitions);
      checkSort(query, ratings);
      const { page, pageSize } = query;
      const [rows, total, byReferrer, byModality, options] = [
        await repository.page(query, pageSize, (page - 1) * pageSize),
        await repository.count(query),
        await repository.summary('referrer', ratings, query),
        await repository.summary('modality', ratings, query),
        await repository.filterOptions(),
      ];
      return {
        items: rows.map(entryOf),
        questions: questionLabels(definitions),
        total,
        page,
        pageSize,
        byReferrer: summaryRows(byReferrer),
        byModality: summaryRows(byModality),
        referrers: options.referrers,
        modalities: options.modalities,
      };
    },

    /** Staff: every feedback of the filter as CSV (up to maxExportRows; more is a 400 asking for a narrower filter). */
    async exportCsv(filter: FeedbackFilter): Promise<{ csv: string; fileName: string; rows: number }> {
      const definitions = await repository.allQuestionnaireDefinitions();
      checkSort(filter, ratingQuestions(definitions));
      const total = await repository.count(filter);
      if (total > maxExportRows) {
        const message = `${total} feedbacks match; one export holds at most ${maxExportRows}. Choose a shorter date range, a referrer or a modality.`;
        throw badRequest(message, [{ in: 'querystring', message }], 'validation_failed');
      }
      const items = (await repository.page(filter, maxExportRows, 0)).map(entryOf);
      const today = localDate(clock.now(), filter.timeZone);
      return {
        csv: feedbackCsv(items, questionLabels(definitions), filter),
        fileName: feedbackCsvFileName(filter, today),
        rows: items.length,
      };
    },
  };
}

export type ReferrerFeedbackService = ReturnType<typeof createReferrerFeedback>;
