import { beforeAll, describe, expect, it } from 'vitest';
import { FeedbackQuestionnaireResponseSchema, FeedbackSavedResponseSchema } from '@contract/api/referrer-feedback';
import { PATIENT_IMAGE_LINK } from '../../../../src-server/modules/results/patient-results';
import { createSignedLinks, parseSignedLinkKeys } from '../../../../src-server/platform/signed-links';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { client, LIAM } from '../patient-access/sign-in-kit';
import { deliverWithReferrerLink, INTEGRATION_ENV } from '../results/results-kit';
import { feedbackQuestionnaire, feedbackRows, giveFeedback, GOOD_ANSWER, setFeedbackEnabled, SIGNING_KEY } from './feedback-kit';

// Report-quality feedback with the referrer's imsec (docs/rules/referrers.md#report-quality-feedback):
// the questionnaire for the report, one answer per report however many arrive at once, strict
// validation, and refusals for the switch off and for changed, expired and patients' links.

const DAY = 86_400_000;
const REFERRER = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.feedback@harbour-medical.example' };

describe.each(backends())('referrer feedback with the imsec on %s', (backend) => {
  const server = useTestApp({ backend, env: { ...INTEGRATION_ENV, SIGNED_LINK_KEYS: SIGNING_KEY } });
  let reportId: string;
  let imsec: string;
  let questionnaireId: string;

  beforeAll(async () => {
    ({ reportId, imsec } = await deliverWithReferrerLink(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-FB-1',
      releaseAt: new Date(server.clock.now().getTime() + 7 * DAY).toISOString(),
      referrer: REFERRER,
    }));
  });

  const refusalsAudited = async () => {
    const [row] = await server.db.query<{ count: number }>(
      `select count(*)::int as count from audit_log where action = 'referrer_feedback.refused'`,
    );
    return row?.count ?? 0;
  };

  it("answers the provider's questionnaire for the report: size lg, the report's exam and modality", async () => {
    const response = await feedbackQuestionnaire(server.app, imsec);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = FeedbackQuestionnaireResponseSchema.parse(response.json());
    expect(answer.alreadyProvided).toBe(false);
    const questionnaire = answer.questionnaire;
    if (questionnaire === null) throw new Error('expected a questionnaire');
    questionnaireId = questionnaire.questionnaireId;
    expect(questionnaire.modalSize).toBe('lg');
    const [exam] = await server.db.query<{ slug: string; modality_id: string; name: string; patient: string; received_at: Date }>(
      `select e.slug, e.modality_id::text as modality_id, e.name, p.first_name || ' ' || p.last_name as patient, r.received_at
         from result_report r join appointment a on a.id = r.appointment_id
         join exam e on e.id = a.exam_id join patient p on p.id = a.patient_id where r.id = $1::uuid`,
      [reportId],
    );
    expect(questionnaire.examSlugs).toEqual([exam?.slug]);
    // Which report the doctor rates: the patient, the exam, when it was reported.
    expect(questionnaire.report).toEqual({
      patientName: exam?.patient,
      examName: exam?.name,
      reportedAt: exam?.received_at.toISOString(),
    });
    expect(questionnaire.modalityIds).toEqual([exam?.modality_id]);
    expect(JSON.stringify(questionnaire.questionnaire)).toContain('clinicalQuestion');
  });

  it('refuses answers that do not fit the questionnaire: unknown questions, out-of-range ratings, missing required ones, another questionnaire', async () => {
    const cases = [
      { questionnaireId, questionnaireResult: { ...GOOD_ANSWER, injected: 'x' } },
      { questionnaireId, questionnaireResult: { ...GOOD_ANSWER, clarity: 9 } },
      { questionnaireId, questionnaireResult: { comment: 'only a comment' } },
      { questionnaireId, questionnaireResult: { ...GOOD_ANSWER, comment: 'x'.repeat(70_000) } },
      { questionnaireId: '00000000-0000-4000-8000-000000000009', questionnaireResult: GOOD_ANSWER },
      { questionnaireId, questionnaireResult: GOOD_ANSWER, extra: true },
    ];
    for (const body of cases) {
      const response = await giveFeedback(server.app, imsec, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(response.json<{ code: string }>().code).toBe('validation_failed');
    }
    expect(await feedbackRows(server.db, reportId)).toEqual([]);
  });

  it('saves exactly one feedback when 10 arrive at once: one 201, nine 409 feedback_already_provided', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => giveFeedback(server.app, imsec, { questionnaireId, questionnaireResult: GOOD_ANSWER })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    const created = responses.find((response) => response.statusCode === 201);
    FeedbackSavedResponseSchema.parse(created?.json());
    for (const response of responses.filter((candidate) => candidate.statusCode === 409))
      expect(response.json()).toMatchObject({ code: 'feedback_already_provided', message: 'feedback already provided' });
    const rows = await feedbackRows(server.db, reportId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ given_via: 'imsec', answers: GOOD_ANSWER });
    // The link's token id names who gave it, never the link itself.
    expect(rows[0]?.given_by).not.toContain('.');
    expect(imsec).not.toContain(rows[0]?.given_by ?? 'none');
  });

  it('then answers alreadyProvided with no questionnaire', async () => {
    const answer = FeedbackQuestionnaireResponseSchema.parse((await feedbackQuestionnaire(server.app, imsec)).json());
    expect(answer).toEqual({ alreadyProvided: true, questionnaire: null });
  });

  it("refuses a changed link, a patient's link and an expired link (403), each audited", async () => {
    const before = await refusalsAudited();
    const last = imsec.at(-1) === 'A' ? 'B' : 'A';
    const links = createSignedLinks({ keys: parseSignedLinkKeys(SIGNING_KEY), clock: server.clock });
    const patientLink = links.sign({ ...PATIENT_IMAGE_LINK, subject: reportId, ttlMs: DAY });
    for (const bad of [`${imsec.slice(0, -1)}${last}`, patientLink]) {
      expect((await feedbackQuestionnaire(server.app, bad)).statusCode).toBe(403);
      expect((await giveFeedback(server.app, bad, { questionnaireId, questionnaireResult: GOOD_ANSWER })).statusCode).toBe(403);
    }
    server.clock.advance(31 * DAY);
    try {
      const expired = await feedbackQuestionnaire(server.app, imsec);
      expect(expired.statusCode).toBe(403);
      expect(expired.json<{ code: string }>().code).toBe('forbidden');
    } finally {
      server.clock.advance(-31 * DAY);
    }
    expect(await refusalsAudited()).toBe(before + 5);
  });

  it('refuses every call with 403 referrer_feedback_disabled when the provider switched feedback off', async () => {
    await setFeedbackEnabled(server.db, false);
    try {
      const get = await feedbackQuestionnaire(server.app, imsec);
      expect(get.statusCode).toBe(403);
      expect(get.json<{ code: string }>().code).toBe('referrer_feedback_disabled');
      const post = await giveFeedback(server.app, imsec, { questionnaireId, questionnaireResult: GOOD_ANSWER });
      expect(post.json<{ code: string }>().code).toBe('referrer_feedback_disabled');
    } finally {
      await setFeedbackEnabled(server.db, true);
    }
  });

  it('asks for exactly one of imsec and pacsAppointmentId', async () => {
    const none = await client(server.app).request('GET', '/api/image_viewer_link/questionnaires');
    expect(none.statusCode).toBe(400);
    const both = await client(server.app).request(
      'GET',
      `/api/image_viewer_link/questionnaires?imsec=${encodeURIComponent(imsec)}&pacsAppointmentId=ACC-FB-1`,
    );
    expect(both.statusCode).toBe(400);
  });
});
