import { beforeAll, describe, expect, it } from 'vitest';
import { FeedbackListResponseSchema, FeedbackQuestionnaireResponseSchema } from '@contract/api/referrer-feedback';
import { backends } from '../../helpers/database';
import { AMELIA, LIAM } from '../patient-access/sign-in-kit';
import { deliverWithReferrerLink, INTEGRATION_ENV } from '../results/results-kit';
import { REFERRER_CLAIMS, STAFF_CLAIMS, staffBrowser, useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';
import { answerFeedback, FEEDBACK_PATH, SIGNING_KEY } from './feedback-kit';

// What staff read of referrer feedback (docs/rules/referrers.md#report-quality-feedback): each
// feedback newest first, a page at a time, and per referrer and per modality the count and the
// average of each rating question; and the accession path for a signed-in referrer.

const DAY = 86_400_000;
const RILEY = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.summary@harbour-medical.example' };
const NGUYEN = { name: 'Dr Amelia Nguyen', providerNumber: '4932751K', email: 'amelia.nguyen@harbour-medical.example' };

describe.each(backends())('referrer feedback for staff on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, env: { ...INTEGRATION_ENV, SIGNED_LINK_KEYS: SIGNING_KEY } });
  let staff: StaffBrowser;
  let referrer: StaffBrowser;

  beforeAll(async () => {
    const releaseAt = new Date(server.clock.now().getTime() + DAY).toISOString();
    const given = [
      {
        bookingKey: LIAM.bookingKey,
        accessionNumber: 'ACC-SUM-1',
        referrer: RILEY,
        answer: { clarity: 5, clinicalQuestion: 4, turnaround: 2 },
      },
      {
        bookingKey: LIAM.bookingKey,
        accessionNumber: 'ACC-SUM-2',
        referrer: RILEY,
        answer: { clarity: 2, clinicalQuestion: 5, turnaround: 3 },
      },
      {
        bookingKey: AMELIA.bookingKey,
        accessionNumber: 'ACC-SUM-3',
        referrer: NGUYEN,
        answer: { clarity: 4, clinicalQuestion: 4, turnaround: 4, comment: 'Good' },
      },
    ];
    for (const item of given) {
      const { imsec } = await deliverWithReferrerLink(server.app, server.db, item.bookingKey, { ...item, releaseAt });
      await answerFeedback(server.app, imsec, item.answer);
      // Newest first needs distinct times.
      server.clock.advance(60_000);
    }
    staff = await signedIn(STAFF_CLAIMS, '198.51.100.31');
    referrer = await signedIn({ ...REFERRER_CLAIMS, provider_number: RILEY.providerNumber }, '198.51.100.32');
  });

  it('lists the feedback newest first, a page at a time', async () => {
    const first = FeedbackListResponseSchema.parse((await staff.request('GET', '/api/staff/referrer-feedback?pageSize=2')).json());
    expect(first.total).toBe(3);
    expect(first.items.map((item) => item.accessionNumber)).toEqual(['ACC-SUM-3', 'ACC-SUM-2']);
    expect(first.items[0]).toMatchObject({ referrerName: NGUYEN.name, givenVia: 'imsec', answers: { comment: 'Good' } });
    const second = FeedbackListResponseSchema.parse((await staff.request('GET', '/api/staff/referrer-feedback?pageSize=2&page=2')).json());
    expect(second.items.map((item) => item.accessionNumber)).toEqual(['ACC-SUM-1']);
  });

  it('sums up per referrer and per modality: counts and the average of each rating question', async () => {
    const answer = FeedbackListResponseSchema.parse((await staff.request('GET', '/api/staff/referrer-feedback')).json());
    const riley = answer.byReferrer.find((row) => row.key === RILEY.providerNumber);
    expect(riley).toEqual({
      key: RILEY.providerNumber,
      label: RILEY.name,
      count: 2,
      averages: { clarity: 3.5, clinicalQuestion: 4.5, turnaround: 2.5 },
    });
    expect(answer.byReferrer.find((row) => row.key === NGUYEN.providerNumber)).toMatchObject({
      count: 1,
      averages: { clarity: 4, clinicalQuestion: 4, turnaround: 4 },
    });
    const counted = answer.byModality.reduce((sum, row) => sum + row.count, 0);
    expect(counted).toBe(3);
    expect(answer.byModality.every((row) => row.key !== '' && Object.keys(row.averages).length === 3)).toBe(true);
  });

  it("names every question with the questionnaire's own title, so staff read what the referrer read", async () => {
    const answer = FeedbackListResponseSchema.parse((await staff.request('GET', '/api/staff/referrer-feedback')).json());
    const titles = Object.fromEntries(answer.questions.map((question) => [question.name, question.title]));
    // The demo provider's questionnaire (resources/demo-provider/referrer-feedback.json).
    expect(titles).toMatchObject({
      clarity: 'How clear was the report?',
      clinicalQuestion: 'Did the report answer your clinical question?',
      turnaround: 'How satisfied are you with the turnaround time?',
      comment: 'Anything else you would like us to know?',
    });
    // Every question answered or averaged has its label.
    const named = new Set(answer.questions.map((question) => question.name));
    for (const item of answer.items) for (const question of Object.keys(item.answers)) expect(named.has(question), question).toBe(true);
    for (const row of [...answer.byReferrer, ...answer.byModality])
      for (const question of Object.keys(row.averages)) expect(named.has(question)).toBe(true);
  });

  it('refuses the staff list to a referrer (403) and to a browser without a staff session (401)', async () => {
    expect((await referrer.request('GET', '/api/staff/referrer-feedback')).statusCode).toBe(403);
    const anonymous = staffBrowser(server.app, '198.51.100.33');
    expect((await anonymous.request('GET', '/api/staff/referrer-feedback')).statusCode).toBe(401);
  });

  it("takes ?pacsAppointmentId only from a signed-in referrer, and only for reports naming the referrer's provider number", async () => {
    const url = `${FEEDBACK_PATH}?pacsAppointmentId=ACC-SUM-1`;
    expect((await staffBrowser(server.app, '198.51.100.34').request('GET', url)).statusCode).toBe(401);
    expect((await staff.request('GET', url)).statusCode).toBe(403);
    // Dr Riley's own report: already answered through the mail's link.
    const own = await referrer.request('GET', url);
    expect(own.statusCode, own.body).toBe(200);
    expect(FeedbackQuestionnaireResponseSchema.parse(own.json())).toMatchObject({ alreadyProvided: true });
    // Dr Nguyen's report is not Dr Riley's: answered as if there were none.
    expect((await referrer.request('GET', `${FEEDBACK_PATH}?pacsAppointmentId=ACC-SUM-3`)).statusCode).toBe(404);
    expect((await referrer.request('GET', `${FEEDBACK_PATH}?pacsAppointmentId=ACC-NONE`)).statusCode).toBe(404);
    // A referrer signed in without a provider number finds none (fails closed).
    const unnamed = await signedIn(REFERRER_CLAIMS, '198.51.100.35');
    expect((await unnamed.request('GET', url)).statusCode).toBe(404);
  });
});
