import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, countRows, hold, patient, requestBooking, sydney } from './booking-test-kit';

// The booking rules the web app checks before it calls the server, called directly as a script
// or a partner widget would (docs/rules/server-enforced.md#booking). SEED_NOW is Tuesday
// 2026-03-10 12:00 in Sydney; Bondi Junction has no MRI; mri-cardiac is enquiry-only.

const FREE_TIME = sydney('2026-03-19', '10:00');

describe.each(backends())('booking rules the web checks, enforced by the server on %s', (backend) => {
  const server = useTestApp({ backend });

  const refusedWith = async (response: { statusCode: number; json: () => { message?: string } }, message: RegExp) => {
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  };

  it('refuses an appointment or a hold for an enquiry-only exam (the web sends a booking request instead)', async () => {
    const before = await countRows(server.db, 'appointment');
    const body = { exams: ['mri-cardiac'], clinicSlug: 'parramatta', startsAt: FREE_TIME };
    await refusedWith(await book(server.app, { ...body, patient: patient() }), /no online times/);
    await refusedWith(await hold(server.app, body), /no online times/);
    expect(await countRows(server.db, 'appointment')).toBe(before);
  });

  it('refuses one appointment time, or a hold, for exams of two modalities (the web opens the walk-in dialog instead)', async () => {
    const before = await countRows(server.db, 'appointment');
    const body = { exams: ['ct-brain', 'xr-chest'], clinicSlug: 'parramatta', startsAt: FREE_TIME };
    await refusedWith(await book(server.app, { ...body, patient: patient() }), /different modalities/);
    await refusedWith(await hold(server.app, body), /different modalities/);
    expect(await countRows(server.db, 'appointment')).toBe(before);
  });

  it('refuses an appointment or a hold at a clinic that does not offer the exam (the web lists only clinics that do)', async () => {
    const before = await countRows(server.db, 'appointment');
    const body = { exams: ['mri-knee'], clinicSlug: 'bondi-junction', startsAt: FREE_TIME };
    await refusedWith(await book(server.app, { ...body, patient: patient() }), /not offered/);
    await refusedWith(await hold(server.app, body), /not offered/);
    expect(await countRows(server.db, 'appointment')).toBe(before);
  });

  it('refuses a booking request at a clinic that does not offer the exam', async () => {
    const before = await countRows(server.db, 'booking_request');
    const response = await requestBooking(server.app, { exams: ['mri-cardiac'], clinicSlug: 'bondi-junction', patient: patient() });
    await refusedWith(response, /not offered at/);
    expect(await countRows(server.db, 'booking_request')).toBe(before);
  });

  it('refuses a time in the past and one inside the minimum notice (lead time), for a hold as for a booking', async () => {
    for (const startsAt of [sydney('2026-03-09', '10:00'), sydney('2026-03-10', '13:00')]) {
      await refusedWith(
        await book(server.app, { exams: ['ct-brain'], clinicSlug: 'parramatta', startsAt, patient: patient() }),
        /not offered/,
      );
      await refusedWith(await hold(server.app, { exams: ['ct-brain'], clinicSlug: 'parramatta', startsAt }), /not offered/);
    }
  });

  it('refuses a time beyond the booking horizon (90 days) and one on a public holiday, which the calendar never offers', async () => {
    // Thursday 11 June 2026 is 93 days ahead; Monday 8 June is the NSW King's Birthday.
    for (const startsAt of [sydney('2026-06-11', '10:00'), sydney('2026-06-08', '10:00')]) {
      await refusedWith(
        await book(server.app, { exams: ['ct-brain'], clinicSlug: 'parramatta', startsAt, patient: patient() }),
        /not offered/,
      );
    }
  });

  it('refuses a booking request without the Medicare number its exam needs', async () => {
    const { medicareNumber: _omitted, ...withoutMedicare } = patient();
    const response = await requestBooking(server.app, { exams: ['mri-cardiac'], patient: withoutMedicare });
    await refusedWith(response, /Medicare/);
  });

  it('records only a walk-in exam the provider lists, with its own minutes; an unknown one is a 400 that books nothing', async () => {
    const bookWalkIn = (walkInExam: object) =>
      book(server.app, {
        exams: ['ct-brain'],
        clinicSlug: 'parramatta',
        startsAt: sydney('2026-03-19', '11:00'),
        patient: patient(),
        walkInExam,
      });
    const before = await countRows(server.db, 'appointment');
    const unknown = await bookWalkIn({ name: 'Free full-body MRI, click https://phish.example', prepTime: 0, minutesPrior: 0 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(unknown.json())).toContain('walkInExam');
    expect(await countRows(server.db, 'appointment')).toBe(before);

    // A listed name with made-up minutes is recorded with the provider's minutes.
    const listed = await bookWalkIn({ name: 'Bone density scan (walk-in)', prepTime: 600, minutesPrior: 0 });
    expect(listed.statusCode, listed.body).toBe(201);
    const rows = await server.db.query<{ walk_in_exam: unknown }>(`select walk_in_exam from appointment where booking_key = $1`, [
      listed.json<{ bookingKey: string }>().bookingKey,
    ]);
    expect(rows.map((row) => row.walk_in_exam)).toEqual([{ name: 'Bone density scan (walk-in)', prepTime: 5, minutesPrior: 20 }]);
  });

  it('refuses a booking request whose notes are over the 2000 characters the form allows', async () => {
    const before = await countRows(server.db, 'booking_request');
    const response = await requestBooking(server.app, { exams: ['mri-cardiac'], patient: patient(), patientNotes: 'n'.repeat(2001) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed' });
    expect(await countRows(server.db, 'booking_request')).toBe(before);
  });
});
