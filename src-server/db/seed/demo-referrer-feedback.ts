import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ModalSizeSchema } from '@contract/api/questionnaires';
import { loadModel } from '../../modules/questionnaires/public';
import type { Queryable } from '../connection';

/**
 * resources/demo-provider/referrer-feedback.json: the referrer's report-quality feedback
 * questionnaire(s) (docs/rules/referrers.md#report-quality-feedback). A missing file means none.
 */

const DemoReferrerFeedbackSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  modalSize: ModalSizeSchema.default('lg'),
  json: z.record(z.string(), z.unknown()),
});
const DemoReferrerFeedbackFileSchema = z.strictObject({ questionnaires: z.array(DemoReferrerFeedbackSchema) });
export type DemoReferrerFeedback = z.infer<typeof DemoReferrerFeedbackSchema>;

/** Reads and checks the file; problems are added to `problems` (file and field named). */
export async function readDemoReferrerFeedback(directory: string, problems: string[]): Promise<DemoReferrerFeedback[]> {
  const file = 'referrer-feedback.json';
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(directory, file), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    problems.push(`${file}: cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  const parsed = DemoReferrerFeedbackFileSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${file}: ${issue.path.join('.') || '(whole file)'}: ${issue.message}`);
    return [];
  }
  parsed.data.questionnaires.forEach((item, index) => {
    try {
      loadModel(item.json);
    } catch (error) {
      problems.push(
        `${file}: questionnaires[${index}].json: not a usable SurveyJS questionnaire (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  });
  return parsed.data.questionnaires;
}

/** Writes the questionnaires in file order (the first is the one asked). */
export async function insertDemoReferrerFeedback(tx: Queryable, items: readonly DemoReferrerFeedback[]): Promise<void> {
  for (const [position, item] of items.entries()) {
    await tx.query(
      `insert into referrer_feedback_questionnaire (slug, title, json, modal_size, position) values ($1, $2, $3::jsonb, $4, $5)`,
      [item.slug, item.title, JSON.stringify(item.json), item.modalSize, position],
    );
  }
}
