import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppointmentSummarySchema } from '@contract/api/appointments';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { countRows, hold, overlaps, slotsOn } from '../booking/booking-test-kit';
import { lastAuditId, setOtpRequired } from '../patient-access/sign-in-kit';
import { auditSince, bookThrough, isFree, reschedule, rowsOf, signIn, summaryOf, type Signed } from './self-service-kit';

// SEED_NOW is Tuesday 2026-03-10 12:00 in Sydney (UTC+11). Demo rules (self-service.json):
// priorMinutes 1440, walk-in reschedule not allowed, five cancel reasons, three consent forms
// (one general, one MR, one CT). Parramatta has one MR resource (MR1), so two MRI bookings
// cannot share a time there.

const OLIVER_CANCELED = { bookingKey: 'Nj3PQywTfwZs5UvmttODPA', dateOfBirth: '1957-01-30' };
const JACK_ON_HOLD = { bookingKey: 'r2gio7z_AuIa9srd_WgtNw', dateOfBirth: '1958-05-17' };
const EVELYN_TOMORROW = { bookingKey: 'jlx0B3-koE9P5H7Alnmy8A', dateOfBirth: '1951-02-11' };

describe.each(backends())('appointment self-service: reschedule and change, on %s', (backend) => {
  const server = useTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));

  const url = (key: string, rest = ''): string => `/api/appointments/${key}${rest}`;

  describe('reschedule and change', () => {
    it('moves the booking atomically: new rows BOOKED under the same key, old ones RESCHEDULED, the old time free, replay by Idempotency-Key', async () => {
      const booked = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-20', slot: 0 });
      const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-23'))[2]?.startsAt ?? '';
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const mailsBefore = await countRows(server.db, 'outbox_mail');
      const key = randomUUID();
      const body = { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target };
      const response = await reschedule(signed, booked.bookingKey, body, key);
      expect(response.statusCode, response.body).toBe(200);
      const summary = AppointmentSummarySchema.parse(response.json());
      expect(summary).toMatchObject({ bookingKey: booked.bookingKey, status: 'BOOKED' });
      expect(summary.appointments.map((item) => [item.examSlug, item.startsAt, item.status])).toEqual([['mri-knee', target, 'BOOKED']]);
      expect(await rowsOf(server.db, booked.bookingKey)).toEqual([
        { status: 'RESCHEDULED', starts_at: booked.startsAt },
        { status: 'BOOKED', starts_at: target },
      ]);
      expect(await isFree(server.app, 'mri-knee', 'parramatta', booked.startsAt)).toBe(true);
      expect(await isFree(server.app, 'mri-knee', 'parramatta', target)).toBe(false);
      expect(await countRows(server.db, 'outbox_mail')).toBe(mailsBefore + 1);
      const [change] = await server.db.query<{ action: string; details: { from: { startsAt: string }; to: { startsAt: string } } }>(
        `select action, details from appointment_change where booking_key = $1`,
        [booked.bookingKey],
      );
      expect(change).toMatchObject({ action: 'RESCHEDULE', details: { from: { startsAt: booked.startsAt }, to: { startsAt: target } } });

      const replay = await reschedule(signed, booked.bookingKey, body, key);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(response.json());
      expect(await rowsOf(server.db, booked.bookingKey)).toHaveLength(2);
      const reused = await reschedule(signed, booked.bookingKey, { ...body, startsAt: booked.startsAt }, key);
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toMatchObject({ code: 'idempotency_key_reused' });
      const noKey = await signed.post(url(booked.bookingKey, '/reschedule'), body);
      expect(noKey.statusCode).toBe(400);
    });

    it("moves into the patient's own hold on the new time: the hold becomes the appointment in one step, nobody can take it in between", async () => {
      const booked = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-25', slot: 0 });
      const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-26'))[3]?.startsAt ?? '';
      const held = await hold(server.app, { exams: ['mri-knee'], clinicSlug: 'parramatta', startsAt: target });
      expect(held.statusCode, held.body).toBe(201);
      const { holdId } = held.json<{ holdId: string }>();
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const body = { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target };
      // Parramatta has one MRI: without naming it, the patient's own hold blocks the move.
      expect((await reschedule(signed, booked.bookingKey, body)).statusCode).toBe(409);
      const moved = await reschedule(signed, booked.bookingKey, { ...body, holdId });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await rowsOf(server.db, booked.bookingKey)).toEqual([
        { status: 'RESCHEDULED', starts_at: booked.startsAt },
        { status: 'BOOKED', starts_at: target },
      ]);
      expect(await server.db.query('select id from appointment where hold_id = $1', [holdId])).toEqual([]);
      expect(await isFree(server.app, 'mri-knee', 'parramatta', target)).toBe(false);
      expect(await isFree(server.app, 'mri-knee', 'parramatta', booked.startsAt)).toBe(true);
    });

    it('answers 409 slot_taken with fresh times when the new time is taken, and keeps the old time', async () => {
      const first = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-24', slot: 0 });
      const second = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-24', slot: 5 });
      const signed = await signIn(server.app, first.bookingKey, first.dateOfBirth);
      const taken = await reschedule(signed, first.bookingKey, {
        context: 'RESCHEDULED',
        clinicSlug: 'parramatta',
        startsAt: second.startsAt,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'slot_taken' });
      expect(taken.json<{ details: { freshSlots: unknown[] } }>().details.freshSlots.length).toBeGreaterThan(0);
      expect(await rowsOf(server.db, first.bookingKey)).toEqual([{ status: 'BOOKED', starts_at: first.startsAt }]);
      const notOffered = await reschedule(signed, first.bookingKey, {
        context: 'RESCHEDULED',
        clinicSlug: 'parramatta',
        startsAt: '2026-03-24T13:07:00.000Z',
      });
      expect(notOffered.statusCode).toBe(400);
      const otherExams = await reschedule(signed, first.bookingKey, {
        context: 'RESCHEDULED',
        clinicSlug: 'parramatta',
        startsAt: first.startsAt,
        exams: ['mri-shoulder'],
      });
      expect(otherExams.statusCode).toBe(400);
      expect(otherExams.json()).toMatchObject({ code: 'validation_failed', details: [{ in: 'body/exams' }] });
      expect(await rowsOf(server.db, first.bookingKey)).toEqual([{ status: 'BOOKED', starts_at: first.startsAt }]);
    });

    it('a double submit (same Idempotency-Key at once) moves the booking once and answers both the same', async () => {
      const booked = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-04-06', slot: 0 });
      const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-04-07'))[4]?.startsAt ?? '';
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const key = randomUUID();
      const body = { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target };
      const [first, second] = await Promise.all([
        reschedule(signed, booked.bookingKey, body, key),
        reschedule(signed, booked.bookingKey, body, key),
      ]);
      expect([first?.statusCode, second?.statusCode], `${first?.body}\n${second?.body}`).toEqual([200, 200]);
      expect(first?.json()).toEqual(second?.json());
      expect(await rowsOf(server.db, booked.bookingKey)).toEqual([
        { status: 'RESCHEDULED', starts_at: booked.startsAt },
        { status: 'BOOKED', starts_at: target },
      ]);
    });

    it('keeps a PENDING booking pending at its new time (the clinic has yet to confirm it)', async () => {
      const grace = await signIn(server.app, 'mNp2p1IOmqpDiRsoCT3WpA', '1985-07-21');
      const target = (await slotsOn(server.app, 'us-pelvis', 'newcastle', '2026-03-17'))[2]?.startsAt ?? '';
      const response = await reschedule(grace, 'mNp2p1IOmqpDiRsoCT3WpA', {
        context: 'RESCHEDULED',
        clinicSlug: 'newcastle',
        startsAt: target,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(AppointmentSummarySchema.parse(response.json())).toMatchObject({ status: 'PENDING', pending: true });
      expect((await rowsOf(server.db, 'mNp2p1IOmqpDiRsoCT3WpA')).map((row) => row.status)).toEqual(['RESCHEDULED', 'PENDING']);
    });

    it('changes the exams in the CHANGED context: the old rows become CHANGED', async () => {
      const booked = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-25', slot: 1 });
      const target = (await slotsOn(server.app, 'mri-shoulder', 'parramatta', '2026-03-26'))[3]?.startsAt ?? '';
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const since = await lastAuditId(server.db);
      const response = await reschedule(signed, booked.bookingKey, {
        context: 'CHANGED',
        clinicSlug: 'parramatta',
        startsAt: target,
        exams: ['mri-shoulder'],
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(AppointmentSummarySchema.parse(response.json()).appointments.map((item) => item.examSlug)).toEqual(['mri-shoulder']);
      expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['CHANGED', 'BOOKED']);
      expect((await auditSince(server.db, since)).map((row) => row.action)).toEqual(['appointment.changed']);
    });

    it('refuses a walk-in booking (WALK_IN) unless the provider allows it, a cancelled one (APPOINTMENT_CANCELLED) and one inside the cut-off (PRIOR_MINUTES)', async () => {
      const walkIn = await bookThrough(server.app, {
        exams: 'mri-knee',
        clinic: 'parramatta',
        date: '2026-03-27',
        slot: 2,
        walkInExam: { name: 'Chest X-ray (walk-in)', prepTime: 0, minutesPrior: 15 },
      });
      const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-30'))[1]?.startsAt ?? '';
      const signed = await signIn(server.app, walkIn.bookingKey, walkIn.dateOfBirth);
      expect((await summaryOf(signed, walkIn.bookingKey)).walkInExam).toEqual({
        name: 'Chest X-ray (walk-in)',
        prepTime: 0,
        minutesPrior: 15,
      });
      expect((await signed.get(url(walkIn.bookingKey, '/can-change?action=RESCHEDULE'))).json()).toEqual({
        canChange: false,
        reason: 'WALK_IN',
        priorMinutes: 1440,
      });
      expect((await signed.get(url(walkIn.bookingKey, '/can-change?action=CANCEL'))).json()).toMatchObject({ canChange: true });
      const refused = await reschedule(signed, walkIn.bookingKey, { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'change_not_allowed', details: { reason: 'WALK_IN' } });

      await server.db.query('update self_service_settings set walk_in_reschedule_allowed = true');
      try {
        const allowed = await reschedule(signed, walkIn.bookingKey, { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target });
        expect(allowed.statusCode, allowed.body).toBe(200);
        expect(AppointmentSummarySchema.parse(allowed.json()).walkInExam).toMatchObject({ name: 'Chest X-ray (walk-in)' });
      } finally {
        await server.db.query('update self_service_settings set walk_in_reschedule_allowed = false');
      }

      const refusals = [
        [OLIVER_CANCELED, 'APPOINTMENT_CANCELLED'],
        [EVELYN_TOMORROW, 'PRIOR_MINUTES'],
      ] as const;
      for (const [person, reason] of refusals) {
        const patient = await signIn(server.app, person.bookingKey, person.dateOfBirth);
        const refused = await reschedule(patient, person.bookingKey, {
          context: 'RESCHEDULED',
          clinicSlug: 'bondi-junction',
          startsAt: target,
        });
        expect(refused.json(), reason).toMatchObject({ code: 'change_not_allowed', details: { reason } });
      }
      const jack = await signIn(server.app, JACK_ON_HOLD.bookingKey, JACK_ON_HOLD.dateOfBirth);
      expect((await jack.get(url(JACK_ON_HOLD.bookingKey, '/can-change?action=RESCHEDULE'))).json()).toMatchObject({ reason: 'OTHER' });
    });

    it('concurrent reschedules of two bookings into the same free time: exactly one wins, the loser keeps its old time', async () => {
      for (const round of [0, 1, 2]) {
        const date = ['2026-03-31', '2026-04-01', '2026-04-02'][round] ?? '';
        const a = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date, slot: 0 });
        const b = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date, slot: 4 });
        const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', date))[6]?.startsAt ?? '';
        const signedA = await signIn(server.app, a.bookingKey, a.dateOfBirth);
        const signedB = await signIn(server.app, b.bookingKey, b.dateOfBirth);
        const body = { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target };
        const answers = await Promise.all([reschedule(signedA, a.bookingKey, body), reschedule(signedB, b.bookingKey, body)]);
        const codes = answers.map((answer) => answer.statusCode).sort();
        expect(codes, answers.map((answer) => answer.body).join('\n')).toEqual([200, 409]);
        const loser = answers[0]?.statusCode === 409 ? answers[0] : answers[1];
        expect(loser?.json()).toMatchObject({ code: 'slot_taken' });
        const [winner, lost] = answers[0]?.statusCode === 200 ? [a, b] : [b, a];
        expect(await rowsOf(server.db, winner.bookingKey)).toEqual([
          { status: 'RESCHEDULED', starts_at: winner.startsAt },
          { status: 'BOOKED', starts_at: target },
        ]);
        expect(await rowsOf(server.db, lost.bookingKey)).toEqual([{ status: 'BOOKED', starts_at: lost.startsAt }]);
        expect(await overlaps(server.db)).toBe(0);
      }
    });
  });

  it('six bookings racing into one time: one wins, five answer slot_taken and keep their times', async () => {
    const date = '2026-04-03';
    const bookings = [];
    for (let index = 0; index < 6; index++)
      bookings.push(await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date, slot: 0 }));
    const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', date))[3]?.startsAt ?? '';
    const sessions = await Promise.all(bookings.map((booked) => signIn(server.app, booked.bookingKey, booked.dateOfBirth)));
    const answers = await Promise.all(
      bookings.map((booked, index) =>
        reschedule(sessions[index] as Signed, booked.bookingKey, { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409 && answer.json<{ code: string }>().code === 'slot_taken')).toHaveLength(5);
    for (const [index, booked] of bookings.entries()) {
      const rows = await rowsOf(server.db, booked.bookingKey);
      if (answers[index]?.statusCode === 200) expect(rows.map((row) => row.status)).toEqual(['RESCHEDULED', 'BOOKED']);
      else expect(rows).toEqual([{ status: 'BOOKED', starts_at: booked.startsAt }]);
    }
    expect(await overlaps(server.db)).toBe(0);
  });
});
