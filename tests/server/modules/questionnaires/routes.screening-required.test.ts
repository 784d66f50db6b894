import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { book, countRows, newClientAddress, patient, requestBooking, screenedKey, slotsOn } from '../booking/booking-test-kit';
import { bookThrough, reschedule, rowsOf, signIn } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import { MRI_SAFE, PACEMAKER, useQuestionnaireApi } from './questionnaire-kit';

// A questionnaire whose outcomes can refuse or change a booking is required by the server for the
// exams it applies to, whatever required_before_booking says (docs/rules/questionnaires.md#required-answers):
// for bookings, booking requests, staff bookings and changes of exams. The demo provider's
// setting is off here, as a provider's may be.

interface Refusal {
  code: string;
  message: string;
  details?: Array<{ in: string; questionnaireSlug?: string }>;
}

describe.each(backends())('the safety screening the server requires on %s', (backend) => {
  const { server, signedIn: signedInStaff } = useStaffTestApp({ backend, staffAddress: newClientAddress });
  const { newKey, saveTemporary } = useQuestionnaireApi(server);
  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    await server.db.query('update questionnaire_settings set required_before_booking = false');
  });

  const mriKnee = async (date: string, slot = 0) => ({
    exams: ['mri-knee'],
    clinicSlug: 'parramatta',
    startsAt: (await slotsOn(server.app, 'mri-knee', 'parramatta', date))[slot]?.startsAt ?? '',
    patient: patient(),
  });
  const refusals = async (): Promise<Array<{ actor: string; details: { code: string; exams: string[]; questionnaires?: string[] } }>> =>
    server.db.query(`select actor, details from audit_log where action = 'booking.screening_refused' order by id`);

  it('refuses an MRI booked through the API without answers, with a key holding none, and with answers for another exam; audits each', async () => {
    const body = await mriKnee('2026-03-24');
    const appointments = await countRows(server.db, 'appointment');
    const audited = (await refusals()).length;

    const withoutKey = await book(server.app, { ...body, questionnaireKey: undefined });
    expect(withoutKey.statusCode, withoutKey.body).toBe(400);
    const refusal = withoutKey.json<Refusal>();
    expect(refusal.code).toBe('questionnaire_required');
    expect(refusal.message).toContain("MRI knee needs its safety questionnaire 'MRI safety screening' answered first.");
    expect(refusal.message).toContain('questionnaireKey');
    expect(refusal.details).toEqual([expect.objectContaining({ in: 'body/questionnaireKey', questionnaireSlug: 'mri-safety-screening' })]);

    const emptyKey = await book(server.app, { ...body, questionnaireKey: await newKey() });
    expect(emptyKey.json<Refusal>().code).toBe('questionnaire_required');

    // Answers for a CT under the key say nothing about the MRI.
    const ctKey = await screenedKey(server.app, ['ct-chest']);
    const otherExam = await book(server.app, { ...body, questionnaireKey: ctKey });
    expect(otherExam.statusCode, otherExam.body).toBe(400);
    expect(otherExam.json<Refusal>().code).toBe('questionnaire_required');

    expect(await countRows(server.db, 'appointment')).toBe(appointments);
    const audits = (await refusals()).slice(audited);
    expect(audits).toHaveLength(3);
    expect(audits[0]).toMatchObject({
      actor: 'anonymous',
      details: { code: 'questionnaire_required', exams: ['mri-knee'], questionnaires: ['mri-safety-screening'] },
    });
  });

  it("refuses another booking's answers: a key spent on a booking cannot screen the next one", async () => {
    const first = await mriKnee('2026-03-25', 0);
    const key = await screenedKey(server.app, ['mri-knee']);
    const booked = await book(server.app, { ...first, questionnaireKey: key });
    expect(booked.statusCode, booked.body).toBe(201);
    const again = await book(server.app, { ...(await mriKnee('2026-03-25', 1)), questionnaireKey: key });
    expect(again.statusCode, again.body).toBe(400);
    expect(again.json()).toMatchObject({ code: 'validation_failed', details: [{ in: 'body/questionnaireKey' }] });
  });

  it('refuses answers that deny the MRI (a pacemaker) and books with the right answers', async () => {
    const body = await mriKnee('2026-03-26');
    const audited = (await refusals()).length;
    const denied = await book(server.app, {
      ...body,
      questionnaireKey: await screenedKey(server.app, ['mri-knee'], { 'mri-safety-screening': PACEMAKER }),
    });
    expect(denied.statusCode, denied.body).toBe(409);
    expect(denied.json()).toMatchObject({ code: 'booking_denied', message: expect.stringContaining('pacemaker') });
    expect((await refusals()).slice(audited)).toEqual([
      expect.objectContaining({ details: { code: 'booking_denied', exams: ['mri-knee'] } }),
    ]);

    const key = await newKey();
    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(200);
    const booked = await book(server.app, { ...body, questionnaireKey: key });
    expect(booked.statusCode, booked.body).toBe(201);
    const bookingKey = booked.json<{ bookingKey: string }>().bookingKey;
    const moved = await server.db.query(`select 1 from questionnaire_answer where owner_type = 'APPOINTMENT' and owner_key = $1`, [
      bookingKey,
    ]);
    expect(moved).toHaveLength(1);
  });

  it('requires the screening for a booking request too: none, a denying one, then the right one', async () => {
    const body = { exams: ['mri-cardiac'], clinicSlug: 'newcastle', patient: patient() };
    const requests = await countRows(server.db, 'booking_request');
    const withoutKey = await requestBooking(server.app, { ...body, questionnaireKey: undefined });
    expect(withoutKey.statusCode, withoutKey.body).toBe(400);
    expect(withoutKey.json<Refusal>()).toMatchObject({
      code: 'questionnaire_required',
      message: expect.stringContaining('MRI safety screening'),
    });
    const denied = await requestBooking(server.app, {
      ...body,
      questionnaireKey: await screenedKey(server.app, ['mri-cardiac'], { 'mri-safety-screening': PACEMAKER }),
    });
    expect(denied.statusCode, denied.body).toBe(409);
    const spent = await screenedKey(server.app, ['mri-knee']);
    expect((await book(server.app, { ...(await mriKnee('2026-03-25', 2)), questionnaireKey: spent })).statusCode).toBe(201);
    const reused = await requestBooking(server.app, { ...body, questionnaireKey: spent });
    expect(reused.statusCode, reused.body).toBe(400);
    expect(await countRows(server.db, 'booking_request')).toBe(requests);
    const created = await requestBooking(server.app, body);
    expect(created.statusCode, created.body).toBe(201);
    expect(await countRows(server.db, 'booking_request')).toBe(requests + 1);
  });

  it('holds staff bookings to the same screening: none and a denying one refused, the right one booked', async () => {
    const staff = await signedInStaff(STAFF_CLAIMS);
    const body = { ...(await mriKnee('2026-03-27')), staffBooking: true };
    const refused = await staff.request('POST', '/api/booking/appointments', body, { 'idempotency-key': randomUUID() });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<Refusal>().code).toBe('questionnaire_required');
    expect((await refusals()).at(-1)?.actor).toMatch(/^staff:/);
    const pacemaker = await screenedKey(server.app, ['mri-knee'], { 'mri-safety-screening': PACEMAKER });
    const denied = await staff.request(
      'POST',
      '/api/booking/appointments',
      { ...body, questionnaireKey: pacemaker },
      { 'idempotency-key': randomUUID() },
    );
    expect(denied.statusCode, denied.body).toBe(409);
    expect(denied.json<Refusal>().code).toBe('booking_denied');
    const booked = await staff.request(
      'POST',
      '/api/booking/appointments',
      { ...body, questionnaireKey: await screenedKey(server.app, ['mri-knee']) },
      { 'idempotency-key': randomUUID() },
    );
    expect(booked.statusCode, booked.body).toBe(201);
  });

  it('requires the new exams’ screening when a booking changes to an MRI: none, a denying one, then the right one', async () => {
    const booked = await bookThrough(server.app, { exams: 'us-pelvis', clinic: 'parramatta', date: '2026-03-30', slot: 0 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-31'))[0]?.startsAt ?? '';
    const change = { context: 'CHANGED', clinicSlug: 'parramatta', startsAt: target, exams: ['mri-knee'] };

    const unscreened = await reschedule(signed, booked.bookingKey, change);
    expect(unscreened.statusCode, unscreened.body).toBe(400);
    expect(unscreened.json<Refusal>().code).toBe('questionnaire_required');
    const denied = await reschedule(signed, booked.bookingKey, {
      ...change,
      questionnaireKey: await screenedKey(server.app, ['mri-knee'], { 'mri-safety-screening': PACEMAKER }),
    });
    expect(denied.statusCode, denied.body).toBe(409);
    expect(denied.json<Refusal>().code).toBe('booking_denied');
    expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);
    expect((await refusals()).slice(-2).map((row) => row.details.code)).toEqual(['questionnaire_required', 'booking_denied']);

    // Another booking's answers (its key was spent on it) are no answers for this one.
    const spent = await screenedKey(server.app, ['mri-knee']);
    expect((await book(server.app, { ...(await mriKnee('2026-03-31', 3)), questionnaireKey: spent })).statusCode).toBe(201);
    expect((await reschedule(signed, booked.bookingKey, { ...change, questionnaireKey: spent })).statusCode).toBe(400);
    const changed = await reschedule(signed, booked.bookingKey, {
      ...change,
      questionnaireKey: await screenedKey(server.app, ['mri-knee']),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['CHANGED', 'BOOKED']);

    // Its MRI screening now belongs to the booking: a further change to another MRI needs no new key.
    const shoulder = (await slotsOn(server.app, 'mri-shoulder', 'parramatta', '2026-04-01'))[0]?.startsAt ?? '';
    const again = await reschedule(signed, booked.bookingKey, { ...change, startsAt: shoulder, exams: ['mri-shoulder'] });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('keeps required_before_booking for questionnaires that decide nothing: asked only with the setting on', async () => {
    await server.db.query(
      `insert into questionnaire (slug, type, title, json, association, outcomes, position)
       values ('us-comfort', 'BOOKING_FORM', 'Your comfort', '{"elements":[{"type":"boolean","name":"needsChaperone","title":"Would you like a chaperone?"}]}'::jsonb,
               'MODALITY', '[]'::jsonb, 90)`,
    );
    await server.db.query(
      `insert into questionnaire_modality (questionnaire_id, modality_id)
       select q.id, e.modality_id from questionnaire q, exam e where q.slug = 'us-comfort' and e.slug = 'us-pelvis'`,
    );
    const body = async (slot: number) => ({
      exams: ['us-pelvis'],
      clinicSlug: 'newcastle',
      startsAt: (await slotsOn(server.app, 'us-pelvis', 'newcastle', '2026-04-02'))[slot]?.startsAt ?? '',
      patient: patient(),
      questionnaireKey: undefined,
    });
    try {
      expect((await book(server.app, await body(0))).statusCode).toBe(201);
      await server.db.query('update questionnaire_settings set required_before_booking = true');
      const refused = await book(server.app, await body(1));
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json<Refusal>()).toMatchObject({
        code: 'questionnaire_required',
        message: expect.stringContaining("needs its questionnaire 'Your comfort'"),
      });
    } finally {
      await server.db.query('update questionnaire_settings set required_before_booking = false');
      await server.db.query(`update questionnaire set active = false where slug = 'us-comfort'`);
    }
  });
});
