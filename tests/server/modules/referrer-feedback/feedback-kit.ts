import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../../../src-server/db/connection';
import { client } from '../patient-access/sign-in-kit';
import { deliverReport } from '../results/results-kit';

/** Shared steps of the referrer feedback tests: a delivered report's referrer imsec, and the feedback calls. */

export const FEEDBACK_PATH = '/api/image_viewer_link/questionnaires';
export const SIGNING_KEY = `k1:${Buffer.alloc(32, 7).toString('base64url')}`;
export const GOOD_ANSWER = { clarity: 5, clinicalQuestion: 4, turnaround: 3, comment: 'Clear and quick, thank you.' };

/** Delivers a report naming the referrer's e-mail and answers its id and the imsec of the report-ready mail. */
export async function reportWithReferrerLink(
  app: FastifyInstance,
  db: Database,
  bookingKey: string,
  options: { accessionNumber: string; releaseAt: string; referrer: { name: string; providerNumber: string | null; email: string } },
): Promise<{ reportId: string; imsec: string }> {
  const reportId = await deliverReport(app, db, bookingKey, options);
  const [mail] = await db.query<{ text_body: string }>(
    `select text_body from outbox_mail where recipient = $1 and kind = 'referrer_report_ready' and text_body like $2 order by id desc limit 1`,
    [options.referrer.email, `%${options.accessionNumber}%`],
  );
  const link = /(https?:\/\/\S+\/referrer\/quick-report\?\S+)/.exec(mail?.text_body ?? '')?.[1];
  if (link === undefined) throw new Error(`no referrer mail for ${options.accessionNumber}`);
  const imsec = new URL(link).searchParams.get('imsec');
  if (imsec === null) throw new Error('the referrer link has no imsec');
  return { reportId, imsec };
}

export const feedbackQuestionnaire = (app: FastifyInstance, imsec: string): Promise<LightMyRequestResponse> =>
  client(app).request('GET', `${FEEDBACK_PATH}?imsec=${encodeURIComponent(imsec)}`);

export const giveFeedback = (app: FastifyInstance, imsec: string, body: object): Promise<LightMyRequestResponse> =>
  client(app).request('POST', `${FEEDBACK_PATH}?imsec=${encodeURIComponent(imsec)}`, body);

export async function setFeedbackEnabled(db: Database, enabled: boolean): Promise<void> {
  await db.query(`update provider set app_config = jsonb_set(app_config, '{referrerReportQualityFeedbackEnabled}', $1::jsonb)`, [
    JSON.stringify(enabled),
  ]);
}

export async function feedbackRows(db: Database, reportId: string): Promise<{ given_via: string; given_by: string; answers: object }[]> {
  return db.query(`select given_via, given_by, answers from referrer_feedback where report_id = $1::uuid`, [reportId]);
}
