import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { FeedbackQuestionnaireResponseSchema } from '@contract/api/referrer-feedback';
import type { Database } from '../../../../src-server/db/connection';
import { client } from '../patient-access/sign-in-kit';

/** Shared steps of the referrer feedback tests: the feedback calls (results-kit deliverWithReferrerLink gives the imsec). */

export const FEEDBACK_PATH = '/api/image_viewer_link/questionnaires';
export const SIGNING_KEY = `k1:${Buffer.alloc(32, 7).toString('base64url')}`;
export const GOOD_ANSWER = { clarity: 5, clinicalQuestion: 4, turnaround: 3, comment: 'Clear and quick, thank you.' };

export const feedbackQuestionnaire = (app: FastifyInstance, imsec: string): Promise<LightMyRequestResponse> =>
  client(app).request('GET', `${FEEDBACK_PATH}?imsec=${encodeURIComponent(imsec)}`);

export const giveFeedback = (app: FastifyInstance, imsec: string, body: object): Promise<LightMyRequestResponse> =>
  client(app).request('POST', `${FEEDBACK_PATH}?imsec=${encodeURIComponent(imsec)}`, body);

/** Answers the questionnaire the imsec's report offers, as the referrer's form does; the test fails unless it is stored (201). */
export async function answerFeedback(app: FastifyInstance, imsec: string, answer: object): Promise<void> {
  const { questionnaire } = FeedbackQuestionnaireResponseSchema.parse((await feedbackQuestionnaire(app, imsec)).json());
  const response = await giveFeedback(app, imsec, { questionnaireId: questionnaire?.questionnaireId, questionnaireResult: answer });
  expect(response.statusCode, response.body).toBe(201);
}

export async function setFeedbackEnabled(db: Database, enabled: boolean): Promise<void> {
  await db.query(`update provider set app_config = jsonb_set(app_config, '{referrerReportQualityFeedbackEnabled}', $1::jsonb)`, [
    JSON.stringify(enabled),
  ]);
}

export async function feedbackRows(db: Database, reportId: string): Promise<{ given_via: string; given_by: string; answers: object }[]> {
  return db.query(`select given_via, given_by, answers from referrer_feedback where report_id = $1::uuid`, [reportId]);
}
