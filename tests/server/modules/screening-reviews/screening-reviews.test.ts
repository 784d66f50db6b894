import { beforeAll, describe, expect, it } from 'vitest';
import {
  ScreeningReviewListSchema,
  screeningReviewDecisionPath,
  STAFF_SCREENING_REVIEWS_PATH,
  type ScreeningReview,
} from '@contract/api/screening-reviews';
import { reviewExpiry } from '../../../../src-server/modules/screening-reviews/open-review';
// app.screeningReviews is declared there.
import type {} from '../../../../src-server/modules/screening-reviews/service';
// app.screeningReviews is declared there.
import { book, newClientAddress, patient, screenedKey, slotsOn } from '../booking/booking-test-kit';
import { backends, SEED_NOW } from '../../helpers/database';
import { STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';

// A screening a radiographer should judge (docs/rules/screening-review.md), on a real database with
// an injected clock: the booking holds its time ON_HOLD, staff approve (BOOKED) or decline it
// (cancelled, time free, the note mailed), and an undecided one expires at its time. Who may call
// the routes is proven by tests/server/route-access.test.ts.

const HOUR = 3_600_000;
const EXAM = 'mri-knee';
const CLINIC = 'liverpool';
const DAY = '2026-03-16';
/** The demo's MRI safety answers that fire REVIEW_BOOKING: an implant without its card. */
const IMPLANT_WITHOUT_CARD = {
  pacemaker: 'no',
  hasImplants: true,
  implantType: 'Knee replacement',
  implantCard: 'no',
  metalInEyes: 'no',
  claustrophobia: false,
  weightKg: 82,
};
/** A sentinel that must reach the patient's mail and never the audit log. */
const NOTE = 'Please bring the implant letter from your surgeon (sentinel Quillon)';

describe('when an undecided review expires', () => {
  const now = new Date('2026-03-10T00:00:00.000Z');
  it("is the provider's hours before the first appointment", () => {
    expect(reviewExpiry(now, Date.parse('2026-03-16T00:00:00.000Z'), 48).toISOString()).toBe('2026-03-14T00:00:00.000Z');
  });
  it('is halfway to the appointment for a booking made closer than that', () => {
    expect(reviewExpiry(now, Date.parse('2026-03-11T00:00:00.000Z'), 48).toISOString()).toBe('2026-03-10T12:00:00.000Z');
  });
});

describe.each(backends())('screening reviews on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({
    backend,
    clock: SEED_NOW,
    staffAddress: newClientAddress,
    // A RIS address, so the booking's SIU messages are queued (the tests read them from the outbox; none is sent).
    env: { HL7_RIS_ADDRESS: '127.0.0.1:9', HL7_RIS_APPLICATION: 'RIS', HL7_SENDING_FACILITY: 'Demo Radiology' },
  });
  const times: string[] = [];
  beforeAll(async () => {
    // An hour apart, so no two tests' MRIs overlap.
    for (const slot of await slotsOn(server.app, EXAM, CLINIC, DAY)) {
      const last = times.at(-1);
      if (last === undefined || Date.parse(slot.startsAt) - Date.parse(last) >= HOUR) times.push(slot.startsAt);
    }
    expect(times.length).toBeGreaterThan(4);
  });

  /** Books the MRI at the nth free time with answers that ask for a review; answers the key and the patient's address. */
  async function bookHeld(nth: number) {
    server.clock.set(SEED_NOW);
    const startsAt = times[nth] ?? '';
    const person = patient();
    const questionnaireKey = await screenedKey(server.app, [EXAM], { 'mri-safety-screening': IMPLANT_WITHOUT_CARD });
    const response = await book(server.app, { exams: [EXAM], clinicSlug: CLINIC, startsAt, patient: person, questionnaireKey });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'ON_HOLD' });
    return { key: response.json<{ bookingKey: string }>().bookingKey, email: person.email, startsAt };
  }
  const statusOf = async (key: string) =>
    (await server.db.query<{ status: string }>(`select status from appointment where booking_key = $1`, [key])).map((row) => row.status);
  const isFree = async (startsAt: string) => (await slotsOn(server.app, EXAM, CLINIC, DAY)).some((slot) => slot.startsAt === startsAt);
  const mailsTo = (email: string, kind: string) =>
    server.db.query<{ subject: string; text_body: string }>(
      `select subject, text_body from outbox_mail where recipient = $1 and kind = $2`,
      [email, kind],
    );
  async function queue() {
    const staff = await signedIn(STAFF_CLAIMS);
    const response = await staff.request('GET', STAFF_SCREENING_REVIEWS_PATH);
    expect(response.statusCode, response.body).toBe(200);
    return { staff, list: ScreeningReviewListSchema.parse(response.json()) };
  }
  const reviewOf = (items: ScreeningReview[], key: string) => items.find((item) => item.bookingKey === key);
  /** The SIU messages queued for the booking's RIS, as event and SCH-25 (filler status). */
  const risMessages = async (key: string) =>
    (
      await server.db.query<{ event: string; message: string }>(
        `select h.event, h.message from hl7_outbound h join appointment a on a.id = h.appointment_id where a.booking_key = $1 order by h.id`,
        [key],
      )
    ).map(
      (row) =>
        `${row.event} ${
          row.message
            .split('\r')
            .find((segment) => segment.startsWith('SCH|'))
            ?.split('|')[25] ?? ''
        }`,
    );

  it('holds the time ON_HOLD, tells the patient it waits for review, and lists it with the answers', async () => {
    const held = await bookHeld(0);
    expect(await statusOf(held.key)).toEqual(['ON_HOLD']);
    expect(await isFree(held.startsAt)).toBe(false);
    const [confirmation] = await mailsTo(held.email, 'booking_confirmation');
    expect(confirmation?.text_body).toContain('A radiographer will check your answers before your appointment is confirmed.');

    const { list } = await queue();
    const item = reviewOf(list.items, held.key);
    expect(item).toMatchObject({
      clinicName: expect.any(String),
      startsAt: held.startsAt,
      exams: [expect.stringContaining('knee')],
      expiresAt: new Date(Date.parse(held.startsAt) - 48 * HOUR).toISOString(),
    });
    const safety = item?.answers.find((answers) => answers.questionnaire === 'MRI safety screening');
    expect(safety?.items).toContainEqual({ question: expect.stringContaining('card or letter'), answer: 'No' });
    expect(safety?.items).toContainEqual({ question: expect.stringContaining('Which implant'), answer: 'Knee replacement' });
  });

  it('books a passing screening straight away (no review)', async () => {
    server.clock.set(SEED_NOW);
    const response = await book(server.app, { exams: [EXAM], clinicSlug: CLINIC, startsAt: times[1], patient: patient() });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'BOOKED' });
  });

  it('approved: the appointment is BOOKED at the same time and the patient is mailed', async () => {
    const held = await bookHeld(2);
    const { staff, list } = await queue();
    const id = reviewOf(list.items, held.key)?.id ?? '';
    const approved = await staff.request('POST', screeningReviewDecisionPath(id, 'approve'), {});
    expect(approved.statusCode, approved.body).toBe(204);
    expect(await statusOf(held.key)).toEqual(['BOOKED']);
    expect(await isFree(held.startsAt)).toBe(false);
    // The RIS had it as Pending while it was held, and Booked once approved.
    expect(await risMessages(held.key)).toEqual(['SIU_S12 Pending', 'SIU_S14 Booked']);
    const [mail] = await mailsTo(held.email, 'screening_approved');
    expect(mail?.text_body).toContain('your appointment at');
    expect(reviewOf((await queue()).list.items, held.key)).toBeUndefined();
    // Decided once: a second decision is refused.
    const again = await staff.request('POST', screeningReviewDecisionPath(id, 'decline'), { note: NOTE });
    expect(again.statusCode).toBe(409);
  });

  it('declined: a note is required; the appointment is cancelled, the time free, the note mailed but not audited', async () => {
    const held = await bookHeld(3);
    const { staff, list } = await queue();
    const id = reviewOf(list.items, held.key)?.id ?? '';
    expect((await staff.request('POST', screeningReviewDecisionPath(id, 'decline'), {})).statusCode).toBe(400);
    const declined = await staff.request('POST', screeningReviewDecisionPath(id, 'decline'), { note: NOTE });
    expect(declined.statusCode, declined.body).toBe(204);
    expect(await statusOf(held.key)).toEqual(['CANCELED']);
    expect(await isFree(held.startsAt)).toBe(true);
    const [mail] = await mailsTo(held.email, 'screening_declined');
    expect(mail?.text_body).toContain(NOTE);
    expect(mail?.text_body).toMatch(/call the clinic on \S/);
    const audit = await server.db.query<{ details: unknown }>(`select details from audit_log where action = 'screening_review_declined'`);
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain('Quillon');
  });

  it('undecided: it holds the time until its expiry, then is cancelled with a mail and the time is free', async () => {
    const held = await bookHeld(4);
    const expiresAt = Date.parse(held.startsAt) - 48 * HOUR;
    server.clock.set(new Date(expiresAt - 60_000).toISOString());
    await server.app.screeningReviews.expireDue();
    expect(await statusOf(held.key)).toEqual(['ON_HOLD']);
    server.clock.set(new Date(expiresAt).toISOString());
    expect(await server.app.screeningReviews.expireDue()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(held.key)).toEqual(['CANCELED']);
    expect(await isFree(held.startsAt)).toBe(true);
    const [mail] = await mailsTo(held.email, 'screening_expired');
    expect(mail?.subject).toContain('could not be confirmed in time');
    const [review] = await server.db.query<{ status: string }>(`select status from screening_review where booking_key = $1`, [held.key]);
    expect(review?.status).toBe('expired');
  });

  it('refuses a patient session and no session', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: STAFF_SCREENING_REVIEWS_PATH, remoteAddress: newClientAddress() });
    expect(anonymous.statusCode).toBe(401);
  });
});
