import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppointmentCreateResponseSchema, HOLD_EXPIRED_MESSAGE, PATIENT_MESSAGES, SLOT_TAKEN_MESSAGE } from '@contract/api/booking';
import { openPostgres } from '../../../../src-server/db/connection';
import { AvailabilityStore } from '../../../../src-server/modules/availability/availability-store';
import { createAvailabilityRepository } from '../../../../src-server/modules/availability/repository';
import { createBookingRepository } from '../../../../src-server/modules/booking/repository';
import { openScreeningReview } from '../../../../src-server/modules/screening-reviews/public';
import { createBookingService } from '../../../../src-server/modules/booking/service';
import { createCaptcha } from '../../../../src-server/platform/captcha/captcha';
import { backends, postgresUrlFor, SEED_NOW } from '../../helpers/database';
import { buildTestServer } from '../../helpers/build-server';
import { useTestApp } from '../../helpers/test-app';
import { book, countRows, hold, overlaps, patient, requestBooking, slotsOn, sydney } from './booking-test-kit';

// SEED_NOW is Tuesday 2026-03-10 12:00 in Sydney (daylight time, UTC+11); lead time 120 min,
// horizon 90 days, holds 10 min, a 15-minute grid (resources/demo-provider/booking.json).

describe.each(backends())('booking API on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;

  describe('holds and appointments', () => {
    it('a booked time is gone from the very next answer, here and on a second server on the same database', async () => {
      const other = await buildTestServer({ db: server.db, clock });
      try {
        await other.app.ready();
        const before = await slotsOn(other.app, 'mri-knee', 'liverpool', '2026-03-16');
        const target = before.find((slot) => slot.localTime === '10:00');
        expect(target).toBeDefined();
        const response = await book(server.app, {
          exams: ['mri-knee'],
          clinicSlug: 'liverpool',
          startsAt: target?.startsAt,
          patient: patient(),
        });
        expect(response.statusCode).toBe(201);
        for (const app of [server.app, other.app]) {
          const after = (await slotsOn(app, 'mri-knee', 'liverpool', '2026-03-16')).map((slot) => slot.localTime);
          // 10:00-10:30 is taken: 09:45, 10:00 and 10:15 can no longer start a 30-minute exam.
          expect(after).not.toContain('09:45');
          expect(after).not.toContain('10:00');
          expect(after).not.toContain('10:15');
          expect(after).toContain('09:30');
          expect(after).toContain('10:30');
        }
      } finally {
        await other.close();
      }
    });

    it('a second server with its own connections sees bookings and cancellations made elsewhere (change counter)', async () => {
      // On PostgreSQL the second server gets its own pool, as a second process would; PGlite is
      // one process by construction (the data-directory lock), so it shares the database.
      let secondDb = server.db;
      if (backend === 'postgres') {
        const [row] = await server.db.query<{ name: string }>('select current_database() as name');
        secondDb = await openPostgres(postgresUrlFor(row?.name ?? ''), 'second', { max: 2 });
      }
      const other = await buildTestServer({ db: secondDb, clock });
      try {
        await other.app.ready();
        const startsAt = sydney('2026-03-16', '15:00');
        const times = async (app: typeof server.app): Promise<string[]> =>
          (await slotsOn(app, 'ct-brain', 'gosford', '2026-03-16')).map((slot) => slot.startsAt);
        expect(await times(other.app)).toContain(startsAt);
        const response = await book(server.app, { exams: ['ct-brain'], clinicSlug: 'gosford', startsAt, patient: patient() });
        expect(response.statusCode).toBe(201);
        expect(await times(other.app)).not.toContain(startsAt);
        // Another module cancels it with plain SQL: both servers offer the time again at once.
        await secondDb.query(`update appointment set status = 'CANCELED' where booking_key = $1`, [response.json().bookingKey]);
        expect(await times(server.app)).toContain(startsAt);
        expect(await times(other.app)).toContain(startsAt);
      } finally {
        await other.close();
        if (secondDb !== server.db) await secondDb.close();
      }
    });

    it('books with a hold: the hold takes the time, the booking keeps it, the mail is queued with it', async () => {
      const startsAt = sydney('2026-03-16', '11:00');
      const mailBefore = await countRows(server.db, 'outbox_mail');
      const held = await hold(server.app, { exams: ['mri-knee'], clinicSlug: 'chatswood', startsAt });
      expect(held.statusCode).toBe(201);
      const { holdId, expiresAt } = held.json<{ holdId: string; expiresAt: string }>();
      expect(holdId.length).toBeGreaterThanOrEqual(22);
      expect(expiresAt).toBe(new Date(Date.parse(SEED_NOW) + 10 * 60_000).toISOString());
      expect((await slotsOn(server.app, 'mri-knee', 'chatswood', '2026-03-16')).map((slot) => slot.localTime)).not.toContain('11:00');
      // Someone else cannot take a held time.
      const rival = await book(server.app, {
        exams: ['mri-knee'],
        clinicSlug: 'chatswood',
        startsAt,
        patient: patient({ firstName: 'Rival' }),
      });
      expect(rival.statusCode).toBe(409);

      const response = await book(server.app, {
        holdId,
        exams: ['mri-knee'],
        clinicSlug: 'chatswood',
        startsAt,
        patient: patient({ email: 'ada@example.com' }),
        staffBooking: true,
      });
      expect(response.statusCode).toBe(201);
      const body = AppointmentCreateResponseSchema.parse(response.json());
      expect(body.bookingKey.length).toBeGreaterThanOrEqual(22);
      expect(body.status).toBe('BOOKED');
      expect(body.appointments).toEqual([
        expect.objectContaining({
          success: true,
          errorMessage: null,
          examName: 'MRI knee',
          modalityName: 'MRI',
          clinicName: 'Chatswood',
          date: startsAt,
          patientYearOfBirth: 1985,
        }),
      ]);
      expect(body.appointments[0]?.patientEmailHash).toMatch(/^[0-9a-f]{64}$/);
      const rows = await server.db.query<{ status: string; hold_id: string | null; staff_booking: boolean }>(
        'select status, hold_id, staff_booking from appointment where booking_key = $1',
        [body.bookingKey],
      );
      // staffBooking is a staff choice: an anonymous client's is ignored (routes.staff-flags.test.ts).
      expect(rows).toEqual([{ status: 'BOOKED', hold_id: null, staff_booking: false }]);
      expect(await countRows(server.db, 'outbox_mail')).toBe(mailBefore + 1);
      const [mail] = await server.db.query<{ recipient: string; kind: string }>(
        'select recipient, kind from outbox_mail order by id desc limit 1',
      );
      expect(mail).toEqual({ recipient: 'ada@example.com', kind: 'booking_confirmation' });
    });

    it('a hold expires after holdMinutes: the time is offered again and the holder gets hold_expired if it was taken', async () => {
      const startsAt = sydney('2026-03-17', '09:00');
      const held = await hold(server.app, { exams: ['mri-knee'], clinicSlug: 'gosford', startsAt });
      expect(held.statusCode).toBe(201);
      const { holdId } = held.json<{ holdId: string }>();
      expect((await slotsOn(server.app, 'mri-knee', 'gosford', '2026-03-17')).map((slot) => slot.localTime)).not.toContain('09:00');
      clock.advance(10 * 60_000);
      try {
        expect((await slotsOn(server.app, 'mri-knee', 'gosford', '2026-03-17')).map((slot) => slot.localTime)).toContain('09:00');
        const other = await book(server.app, {
          exams: ['mri-knee'],
          clinicSlug: 'gosford',
          startsAt,
          patient: patient({ firstName: 'Bea' }),
        });
        expect(other.statusCode).toBe(201);
        const late = await book(server.app, { holdId, exams: ['mri-knee'], clinicSlug: 'gosford', startsAt, patient: patient() });
        expect(late.statusCode).toBe(409);
        expect(late.json()).toMatchObject({ code: 'hold_expired', message: HOLD_EXPIRED_MESSAGE });
        expect(await overlaps(server.db)).toBe(0);
        // The expired hold row is gone: the winner's insert deleted it.
        expect(await server.db.query('select 1 from appointment where hold_id = $1', [holdId])).toEqual([]);
      } finally {
        clock.set(SEED_NOW);
      }
    });

    it('the sweep deletes expired holds only', async () => {
      const live = await hold(server.app, { exams: ['ct-chest'], clinicSlug: 'liverpool', startsAt: sydney('2026-03-20', '09:00') });
      const { holdId } = live.json<{ holdId: string }>();
      clock.advance(11 * 60_000);
      const fresh = await hold(server.app, { exams: ['ct-chest'], clinicSlug: 'liverpool', startsAt: sydney('2026-03-20', '10:00') });
      try {
        // The sweep the server runs every minute, called directly with the test clock.
        const service = createBookingService({
          db: server.db,
          repository: createBookingRepository(server.db),
          store: new AvailabilityStore(createAvailabilityRepository(server.db), clock),
          clock,
          publicUrl: 'http://localhost',
          captcha: createCaptcha({ db: server.db, clock, secret: () => Promise.resolve('test-secret') }),
          secret: () => Promise.resolve('test-secret'),
          openReview: openScreeningReview,
        });
        expect(await service.sweepExpiredHolds()).toBeGreaterThanOrEqual(1);
        expect(await server.db.query('select 1 from appointment where hold_id = $1', [holdId])).toEqual([]);
        expect(
          await server.db.query('select 1 from appointment where hold_id = $1', [fresh.json<{ holdId: string }>().holdId]),
        ).toHaveLength(1);
      } finally {
        clock.set(SEED_NOW);
      }
    });

    it('an expired hold still books when the time is free', async () => {
      const startsAt = sydney('2026-03-17', '14:00');
      const { holdId } = (await hold(server.app, { exams: ['mri-knee'], clinicSlug: 'gosford', startsAt })).json<{ holdId: string }>();
      clock.advance(11 * 60_000);
      try {
        const response = await book(server.app, { holdId, exams: ['mri-knee'], clinicSlug: 'gosford', startsAt, patient: patient() });
        expect(response.statusCode).toBe(201);
      } finally {
        clock.set(SEED_NOW);
      }
    });

    it('DELETE /api/booking/holds/{holdId} frees the time at once', async () => {
      const startsAt = sydney('2026-03-18', '15:00');
      const { holdId } = (await hold(server.app, { exams: ['ct-brain'], clinicSlug: 'bondi-junction', startsAt })).json<{
        holdId: string;
      }>();
      expect((await slotsOn(server.app, 'ct-brain', 'bondi-junction', '2026-03-18')).map((slot) => slot.localTime)).not.toContain('15:00');
      const released = await server.app.inject({ method: 'DELETE', url: `/api/booking/holds/${holdId}` });
      expect(released.statusCode).toBe(204);
      expect((await slotsOn(server.app, 'ct-brain', 'bondi-junction', '2026-03-18')).map((slot) => slot.localTime)).toContain('15:00');
    });

    it('several exams of one modality are booked back to back on one resource, with a walk-in exam recorded', async () => {
      const startsAt = sydney('2026-03-18', '10:00');
      const response = await book(server.app, {
        exams: ['ct-brain', 'ct-abdomen-pelvis'],
        clinicSlug: 'newcastle',
        startsAt,
        patient: patient(),
        walkInExam: { name: 'Chest X-ray (walk-in)', prepTime: 0, minutesPrior: 15 },
      });
      expect(response.statusCode).toBe(201);
      const { bookingKey, appointments } = AppointmentCreateResponseSchema.parse(response.json());
      expect(appointments.map((appointment) => appointment.examName)).toEqual(['CT brain', 'CT abdomen and pelvis with contrast']);
      const rows = await server.db.query<{ resource_id: string; starts: string; ends: string; walk_in_exam: unknown }>(
        `select resource_id::text as resource_id, to_char(lower(during) at time zone 'UTC', 'HH24:MI') as starts,
                to_char(upper(during) at time zone 'UTC', 'HH24:MI') as ends, walk_in_exam
           from appointment where booking_key = $1 order by lower(during)`,
        [bookingKey],
      );
      expect(rows).toHaveLength(2);
      expect(rows[0]?.resource_id).toBe(rows[1]?.resource_id);
      // 10:00-10:15 brain, then 10:15-10:45 abdomen (Sydney UTC+11).
      expect(rows.map((row) => [row.starts, row.ends])).toEqual([
        ['23:00', '23:15'],
        ['23:15', '23:45'],
      ]);
      expect(rows[0]?.walk_in_exam).toEqual({ name: 'Chest X-ray (walk-in)', prepTime: 0, minutesPrior: 15 });
      // The combined 45 minutes is gone for the pair and for single exams at those times.
      const times = (await slotsOn(server.app, 'ct-brain', 'newcastle', '2026-03-18')).map((slot) => slot.localTime);
      expect(times).not.toContain('10:00');
      expect(times).not.toContain('10:30');
      expect(times).toContain('10:45');
    });

    it('refuses a time that is not offered (off the grid, inside a break, before the lead time)', async () => {
      for (const startsAt of [sydney('2026-03-19', '10:05'), sydney('2026-03-19', '12:30'), sydney('2026-03-10', '12:30')]) {
        const response = await book(server.app, { exams: ['mri-knee'], clinicSlug: 'parramatta', startsAt, patient: patient() });
        expect(response.statusCode, startsAt).toBe(400);
        expect(response.json().message).toBe('That time is not offered. Please choose one of the listed times.');
      }
    });
  });

  describe('validation: bad input is a clear 400 and changes nothing', () => {
    it('names every bad patient field with its message', async () => {
      const before = await countRows(server.db, 'appointment');
      const response = await book(server.app, {
        exams: ['mri-knee'],
        clinicSlug: 'parramatta',
        startsAt: sydney('2026-03-19', '10:00'),
        patient: patient({
          title: 'Sir' as never,
          firstName: '',
          dateOfBirth: '1990-02-30',
          email: 'not-an-email',
          contactNumber: '04 1234 5678',
          postalCode: '21500',
          medicareNumber: '1234567890',
        }),
      });
      expect(response.statusCode).toBe(400);
      const text = JSON.stringify(response.json());
      for (const message of [
        PATIENT_MESSAGES.title,
        PATIENT_MESSAGES.firstName,
        PATIENT_MESSAGES.dateOfBirth,
        PATIENT_MESSAGES.email,
        PATIENT_MESSAGES.contactNumber,
        PATIENT_MESSAGES.postalCode,
        PATIENT_MESSAGES.medicareNumber,
      ]) {
        expect(text).toContain(message);
      }
      expect(await countRows(server.db, 'appointment')).toBe(before);
    });

    it('refuses a date of birth in the future, a missing Medicare number for an MRI, and a missing or malformed Idempotency-Key', async () => {
      const before = await countRows(server.db, 'appointment');
      const base = { exams: ['mri-knee'], clinicSlug: 'parramatta', startsAt: sydney('2026-03-19', '10:00') };
      const future = await book(server.app, { ...base, patient: patient({ dateOfBirth: '2026-03-11' }) });
      expect(future.statusCode).toBe(400);
      expect(future.json().message).toBe(PATIENT_MESSAGES.dateOfBirthFuture);
      const { medicareNumber: _omitted, ...withoutMedicare } = patient();
      const noMedicare = await book(server.app, { ...base, patient: withoutMedicare });
      expect(noMedicare.statusCode).toBe(400);
      expect(noMedicare.json().message).toBe(PATIENT_MESSAGES.medicareRequired);
      // A CT needs no Medicare number.
      expect(
        (await book(server.app, { ...base, exams: ['ct-brain'], startsAt: sydney('2026-03-19', '16:00'), patient: withoutMedicare }))
          .statusCode,
      ).toBe(201);
      const noKey = await server.app.inject({ method: 'POST', url: '/api/booking/appointments', payload: { ...base, patient: patient() } });
      expect(noKey.statusCode).toBe(400);
      const badKey = await book(server.app, { ...base, patient: patient() }, 'not-a-uuid');
      expect(badKey.statusCode).toBe(400);
      const extraField = await book(server.app, { ...base, patient: patient(), price: 0 });
      expect(extraField.statusCode).toBe(400);
      expect(await countRows(server.db, 'appointment')).toBe(before + 1);
    });
  });

  describe('Idempotency-Key', () => {
    it('a retried submit replays the first answer and creates nothing twice', async () => {
      const key = randomUUID();
      const body = { exams: ['ct-brain'], clinicSlug: 'liverpool', startsAt: sydney('2026-03-19', '09:00'), patient: patient() };
      const first = await book(server.app, body, key);
      expect(first.statusCode).toBe(201);
      const appointmentsAfterFirst = await countRows(server.db, 'appointment');
      const mailAfterFirst = await countRows(server.db, 'outbox_mail');
      const second = await book(server.app, body, key);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect(await countRows(server.db, 'appointment')).toBe(appointmentsAfterFirst);
      expect(await countRows(server.db, 'outbox_mail')).toBe(mailAfterFirst);
      const different = await book(server.app, { ...body, startsAt: sydney('2026-03-19', '09:30') }, key);
      expect(different.statusCode).toBe(422);
      expect(different.json().code).toBe('idempotency_key_reused');
    });

    it('10 concurrent submits with one key book once and all answer the same booking', async () => {
      const key = randomUUID();
      const body = { exams: ['ct-brain'], clinicSlug: 'liverpool', startsAt: sydney('2026-03-19', '11:00'), patient: patient() };
      const responses = await Promise.all(Array.from({ length: 10 }, () => book(server.app, body, key)));
      expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(201));
      const keys = new Set(responses.map((response) => response.json<{ bookingKey: string }>().bookingKey));
      expect(keys.size).toBe(1);
      const rows = await server.db.query('select 1 from appointment where booking_key = $1', [[...keys][0]]);
      expect(rows).toHaveLength(1);
    });
  });

  describe('contention', () => {
    it('200 concurrent attempts on one time: exactly one 201, 199 × 409 slot_taken with fresh times, no 5xx, no overlap', async () => {
      // Parramatta has one MRI, so exactly one patient can have 08:00.
      const startsAt = sydney('2026-03-24', '08:00');
      // 200 different patients: each with an address, e-mail and phone of their own, so no
      // booking limit (docs/rules/booking.md#booking-limits) is what refuses them.
      const attempts = Array.from({ length: 200 }, (_, index) =>
        book(
          server.app,
          {
            exams: ['mri-knee'],
            clinicSlug: 'parramatta',
            startsAt,
            patient: patient({
              firstName: `Patient${String.fromCharCode(65 + (index % 26))}`,
              email: `storm-${index}@example.com`,
              contactNumber: String(400_000_000 + index).padStart(10, '0'),
            }),
          },
          randomUUID(),
          { remoteAddress: `10.200.${index >> 8}.${index & 255}` },
        ),
      );
      const responses = await Promise.all(attempts);
      const statuses = responses.map((response) => response.statusCode);
      const byStatus = Object.fromEntries(
        [...new Set(statuses)].map((status) => [status, statuses.filter((other) => other === status).length]),
      );
      expect(byStatus).toEqual({ 201: 1, 409: 199 });
      for (const response of responses.filter((candidate) => candidate.statusCode === 409)) {
        const body = response.json<{ code: string; message: string; details: { freshSlots: Array<{ startsAt: string }> } }>();
        expect(body.code).toBe('slot_taken');
        expect(body.message).toBe(SLOT_TAKEN_MESSAGE);
        expect(body.details.freshSlots.length).toBeGreaterThan(0);
        expect(body.details.freshSlots.map((slot) => slot.startsAt)).not.toContain(startsAt);
      }
      expect(await overlaps(server.db)).toBe(0);
    });

    it('concurrent holds and bookings on overlapping times of different lengths never overlap', async () => {
      const requests = [
        ['09:00', ['ct-abdomen-pelvis']],
        ['09:15', ['ct-brain']],
        ['09:00', ['ct-brain', 'ct-chest']],
        ['09:15', ['ct-abdomen-pelvis']],
        ['09:30', ['ct-sinuses']],
      ] as const;
      const responses = await Promise.all(
        requests.flatMap(([time, exams]) => [
          book(server.app, { exams, clinicSlug: 'tweed-heads', startsAt: sydney('2026-03-25', time), patient: patient() }),
          hold(server.app, { exams, clinicSlug: 'tweed-heads', startsAt: sydney('2026-03-25', time) }),
        ]),
      );
      expect(responses.every((response) => response.statusCode === 201 || response.statusCode === 409)).toBe(true);
      expect(responses.some((response) => response.statusCode === 201)).toBe(true);
      expect(await overlaps(server.db)).toBe(0);
    });
  });

  describe('POST /api/booking/booking-requests', () => {
    it('creates a request per enquiry exam; succeeds when at least one is created', async () => {
      const before = await countRows(server.db, 'booking_request');
      const response = await requestBooking(server.app, {
        exams: ['ct-coronary-angiogram', 'ct-brain', 'mri-cardiac'],
        clinicSlug: 'newcastle',
        patient: patient(),
        patientNotes: 'Mornings please',
      });
      expect(response.statusCode).toBe(201);
      const body = response.json<{
        bookingKey: string;
        results: Array<{ examSlug: string; success: boolean; errorMessage?: string; slug?: string }>;
      }>();
      expect(body.results.map((result) => [result.examSlug, result.success])).toEqual([
        ['ct-coronary-angiogram', true],
        ['ct-brain', false],
        ['mri-cardiac', true],
      ]);
      expect(body.results[1]?.errorMessage).toBe('CT brain can be booked online; please choose a time for it instead.');
      expect(await countRows(server.db, 'booking_request')).toBe(before + 2);
    });

    it('fails with the first error when none can be created, and changes nothing', async () => {
      const before = await countRows(server.db, 'booking_request');
      const { medicareNumber: _omitted, ...withoutMedicare } = patient();
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/booking/booking-requests',
        headers: { 'idempotency-key': randomUUID() },
        payload: { exams: ['ct-brain', 'mri-cardiac'], patient: withoutMedicare },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('CT brain can be booked online; please choose a time for it instead.');
      expect(await countRows(server.db, 'booking_request')).toBe(before);
    });

    it('replays a retried request', async () => {
      const key = randomUUID();
      const payload = { exams: ['mri-cardiac'], patient: patient() };
      const first = await server.app.inject({
        method: 'POST',
        url: '/api/booking/booking-requests',
        headers: { 'idempotency-key': key },
        payload,
      });
      const count = await countRows(server.db, 'booking_request');
      const second = await server.app.inject({
        method: 'POST',
        url: '/api/booking/booking-requests',
        headers: { 'idempotency-key': key },
        payload,
      });
      expect(second.json()).toEqual(first.json());
      expect(await countRows(server.db, 'booking_request')).toBe(count);
    });
  });
});
