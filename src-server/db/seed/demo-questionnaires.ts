import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ModalSizeSchema, OutcomeSchema, QuestionnaireAssociationSchema, QuestionnaireTypeSchema } from '@contract/api/questionnaires';
import { autocompleteSources, isValidCondition, loadModel } from '../../modules/questionnaires/public';
import type { Queryable } from '../connection';

/** resources/demo-provider/questionnaires.json: SurveyJS questionnaires and autocomplete lists. */

export const DemoQuestionnaireSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  type: QuestionnaireTypeSchema,
  title: z.string().min(1),
  modalSize: ModalSizeSchema,
  association: QuestionnaireAssociationSchema,
  modalityCodes: z.array(z.string()),
  examSlugs: z.array(z.string()),
  showClose: z.boolean(),
  showClosingConfirmation: z.boolean(),
  showPreviousButtonOnLastPageEnabled: z.boolean(),
  css: z.record(z.string(), z.unknown()),
  outcomes: z.array(OutcomeSchema),
  json: z.record(z.string(), z.unknown()),
});

export const DemoQuestionnairesFileSchema = z.strictObject({
  /**
   * true: a booking (or booking request) of exams with BOOKING_FORM questionnaires is refused
   * until every one is answered (questionnaire_settings.required_before_booking).
   */
  requiredBeforeBooking: z.boolean().default(false),
  lookups: z.record(z.string().regex(/^[a-z0-9-]+$/), z.array(z.string().min(1))),
  questionnaires: z.array(DemoQuestionnaireSchema),
});
export type DemoQuestionnaires = z.infer<typeof DemoQuestionnairesFileSchema>;
const NO_QUESTIONNAIRES: DemoQuestionnaires = { requiredBeforeBooking: false, lookups: {}, questionnaires: [] };

/**
 * Reads and checks questionnaires.json; a missing file means no questionnaires. Problems are
 * added to `problems` (file and field named).
 */
export async function readDemoQuestionnaires(
  directory: string,
  known: { modalityCodes: ReadonlySet<string>; examSlugs: ReadonlySet<string>; documentTypeCodes: ReadonlySet<string> },
  problems: string[],
): Promise<DemoQuestionnaires> {
  const file = 'questionnaires.json';
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(directory, file), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NO_QUESTIONNAIRES;
    problems.push(`${file}: cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`);
    return NO_QUESTIONNAIRES;
  }
  const parsed = DemoQuestionnairesFileSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${file}: ${issue.path.join('.') || '(whole file)'}: ${issue.message}`);
    return NO_QUESTIONNAIRES;
  }
  const data = parsed.data;
  const slugs = new Set<string>();
  data.questionnaires.forEach((questionnaire, index) => {
    const at = `${file}: questionnaires[${index}]`;
    if (slugs.has(questionnaire.slug)) problems.push(`${at}: duplicate slug '${questionnaire.slug}'`);
    slugs.add(questionnaire.slug);
    for (const code of questionnaire.modalityCodes)
      if (!known.modalityCodes.has(code)) problems.push(`${at}.modalityCodes: unknown modality '${code}'`);
    for (const slug of questionnaire.examSlugs) if (!known.examSlugs.has(slug)) problems.push(`${at}.examSlugs: unknown exam '${slug}'`);
    if (questionnaire.association === 'MODALITY' && questionnaire.modalityCodes.length === 0)
      problems.push(`${at}: a MODALITY questionnaire needs modalityCodes`);
    if (questionnaire.association === 'EXAM' && questionnaire.examSlugs.length === 0)
      problems.push(`${at}: an EXAM questionnaire needs examSlugs`);
    try {
      loadModel(questionnaire.json);
    } catch (error) {
      problems.push(`${at}.json: not a usable SurveyJS questionnaire (${error instanceof Error ? error.message : String(error)})`);
    }
    for (const list of autocompleteSources(questionnaire.json).values()) {
      if (data.lookups[list] === undefined) problems.push(`${at}.json: unknown autocompleteSource '${list}'`);
    }
    questionnaire.outcomes.forEach((outcome, position) => {
      if (!isValidCondition(outcome.condition)) problems.push(`${at}.outcomes[${position}].condition: not a valid expression`);
      if (outcome.type === 'SET_DOCUMENT_TYPE' && !known.documentTypeCodes.has(outcome.result)) {
        problems.push(`${at}.outcomes[${position}].result: unknown document type '${outcome.result}'`);
      }
    });
  });
  return data;
}

export async function insertDemoQuestionnaires(tx: Queryable, data: DemoQuestionnaires): Promise<void> {
  await tx.query('update questionnaire_settings set required_before_booking = $1 where id = 1', [data.requiredBeforeBooking]);
  for (const [list, values] of Object.entries(data.lookups)) {
    for (const [position, value] of values.entries()) {
      await tx.query('insert into questionnaire_lookup (list, value, position) values ($1, $2, $3)', [list, value, position]);
    }
  }
  for (const [position, item] of data.questionnaires.entries()) {
    const rows = await tx.query<{ id: string }>(
      `insert into questionnaire (slug, type, title, json, modal_size, association, outcomes, css, show_close,
                                  show_closing_confirmation, show_previous_button_on_last_page_enabled, position)
       values ($1, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12) returning id::text as id`,
      [
        item.slug,
        item.type,
        item.title,
        JSON.stringify(item.json),
        item.modalSize,
        item.association,
        JSON.stringify(item.outcomes),
        JSON.stringify(item.css),
        item.showClose,
        item.showClosingConfirmation,
        item.showPreviousButtonOnLastPageEnabled,
        position,
      ],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`seed: questionnaire ${item.slug} was not written`);
    for (const code of item.modalityCodes) {
      await tx.query(
        'insert into questionnaire_modality (questionnaire_id, modality_id) select $1::uuid, id from modality where code = $2',
        [id, code],
      );
    }
    for (const slug of item.examSlugs) {
      await tx.query('insert into questionnaire_exam (questionnaire_id, exam_id) select $1::uuid, id from exam where slug = $2', [
        id,
        slug,
      ]);
    }
  }
}
