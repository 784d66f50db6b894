import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect } from 'vitest';
import type { OutcomeProcessingResult } from '@contract/api/questionnaires';
import type { TestApp } from '../../helpers/test-app';
import { CLIENT_HEADERS } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';

/** Answers from the demo MRI safety questionnaire that allow the exam. */
export const MRI_SAFE = { pacemaker: 'no', hasImplants: false, metalInEyes: 'no', claustrophobia: false, weightKg: 82 };
export const PACEMAKER = { ...MRI_SAFE, pacemaker: 'yes' };

/**
 * The questionnaire API as the web client calls it, for one describe block: registers a beforeAll
 * (after the app's) that turns otpRequired off and reads the questionnaire ids by slug.
 */
export function useQuestionnaireApi(server: TestApp) {
  const ids = new Map<string, string>();
  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    for (const row of await server.db.query<{ id: string; slug: string }>('select id::text as id, slug from questionnaire'))
      ids.set(row.slug, row.id);
  });

  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: CLIENT_HEADERS });
  const post = (url: string, payload?: object) =>
    server.app.inject({ method: 'POST', url, headers: CLIENT_HEADERS, ...(payload === undefined ? {} : { payload }) });
  const id = (slug: string): string => ids.get(slug) ?? `missing ${slug}`;

  async function newKey(): Promise<string> {
    const response = await post('/api/questionnaires/booking-keys');
    expect(response.statusCode, response.body).toBe(201);
    const key = response.json<{ bookingKey: string }>().bookingKey;
    expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
    return key;
  }
  const saveTemporary = (
    bookingKey: string,
    slug: string,
    examSlug: string | undefined,
    questionnaireResult: object,
  ): Promise<LightMyRequestResponse> =>
    post('/api/questionnaires/temporary-answers', {
      bookingKey,
      questionnaireId: id(slug),
      ...(examSlug === undefined ? {} : { examSlug }),
      questionnaireResult,
    });
  const outcomes = async (bookingKey: string, exams: string[]): Promise<OutcomeProcessingResult> => {
    const response = await post('/api/questionnaires/outcomes', { bookingKey, exams });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OutcomeProcessingResult>();
  };
  const temporaryAnswers = async (): Promise<number> =>
    (await server.db.query<{ n: number }>(`select count(*)::int as n from questionnaire_answer where owner_type = 'TEMPORARY'`))[0]?.n ??
    -1;

  return { get, post, id, newKey, saveTemporary, outcomes, temporaryAnswers };
}
