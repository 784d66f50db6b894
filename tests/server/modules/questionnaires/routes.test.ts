import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { PendingQuestionnairesResponse, QuestionnaireListResponse } from '@contract/api/questionnaires';
import { randomUUID } from 'node:crypto';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, countRows, patient, slotsOn } from '../booking/booking-test-kit';
import { client, newAddress } from '../patient-access/sign-in-kit';
import { bookThrough, rowsOf, signedAs, signIn } from '../appointments/self-service-kit';
import { MRI_SAFE, PACEMAKER, useQuestionnaireApi } from './questionnaire-kit';

// Questionnaires through the real API on a seeded database: temporary answers under a booking key,
// re-keying, outcomes evaluated by the server on the STORED answers, a denied booking refused by
// the booking endpoint, answers moving to the appointment, post-booking saving per type, and
// a 401 for every post-booking endpoint with another booking's session.

const AMELIA = { bookingKey: 'RTZZ7AsePVS1c6abT-l4BA', dateOfBirth: '1968-11-02' };
const CHLOE_REQUEST = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };

describe.each(backends())('questionnaires on %s', (backend) => {
  const server = useTestApp({ backend });
  const { get, post, id, newKey, saveTemporary, outcomes, temporaryAnswers } = useQuestionnaireApi(server);

  it('lists the booking-time questionnaires of the chosen exams, one per modality, with which are answered', async () => {
    const key = await newKey();
    const response = await get(`/api/questionnaires?bookingKey=${key}&exams=mri-knee,mri-brain`);
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json<QuestionnaireListResponse>();
    expect(list.questionnaires.map((item) => [item.questionnaire.slug, item.examSlug, item.examSlugs, item.answered])).toEqual([
      ['mri-safety-screening', 'mri-knee', ['mri-knee', 'mri-brain'], false],
    ]);
    expect(list.questionnaires[0]?.questionnaire).toMatchObject({
      type: 'BOOKING_FORM',
      association: 'MODALITY',
      modalSize: 'lg',
      showClosingConfirmation: true,
    });
    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-brain', MRI_SAFE)).statusCode).toBe(200);
    const after = (await get(`/api/questionnaires?bookingKey=${key}&exams=mri-knee,mri-brain`)).json<QuestionnaireListResponse>();
    expect(after.allAnswered).toBe(true);
    const ct = (await get(`/api/questionnaires?bookingKey=${key}&exams=ct-chest`)).json<QuestionnaireListResponse>();
    expect(ct.questionnaires.map((item) => [item.questionnaire.slug, item.examSlug, item.answered])).toEqual([
      ['ct-contrast', 'ct-chest', false],
    ]);
    expect((await get(`/api/questionnaires?bookingKey=${'A'.repeat(22)}&exams=mri-knee`)).statusCode).toBe(404);
    expect((await get(`/api/questionnaires?bookingKey=${key}&exams=no-such-exam`)).statusCode).toBe(400);
  });

  it('refuses malformed or partial answers with a clear 400 and stores nothing', async () => {
    const key = await newKey();
    const before = await temporaryAnswers();
    const cases: Array<[object, string, string]> = [
      [{ pacemaker: 'no' }, 'hasImplants', 'needs an answer'],
      [{ ...MRI_SAFE, pacemaker: 'maybe' }, 'pacemaker', 'is not one of the listed answers'],
      [{ ...MRI_SAFE, weightKg: 'eighty' }, 'weightKg', 'needs a number'],
      [{ ...MRI_SAFE, hasImplants: true, implantType: 'Something I made up' }, 'implantType', 'choose one of the suggestions'],
      [{ ...MRI_SAFE, favouriteColour: 'blue' }, 'favouriteColour', 'not a question'],
    ];
    for (const [answer, question, text] of cases) {
      const response = await saveTemporary(key, 'mri-safety-screening', 'mri-knee', answer);
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ code: string; message: string; details: Array<{ in: string }> }>();
      expect(body.code).toBe('validation_failed');
      expect(body.message).toContain(text);
      expect(body.details[0]?.in).toBe(`body/questionnaireResult/${question}`);
    }
    // The wrong exam, a missing exam, a post-booking type, a result that is not an object.
    expect((await saveTemporary(key, 'mri-safety-screening', 'ct-chest', MRI_SAFE)).statusCode).toBe(400);
    expect((await saveTemporary(key, 'mri-safety-screening', undefined, MRI_SAFE)).statusCode).toBe(400);
    expect((await saveTemporary(key, 'pain-score-initial', undefined, { painScore: 3 })).statusCode).toBe(400);
    expect(
      (
        await post('/api/questionnaires/temporary-answers', {
          bookingKey: key,
          questionnaireId: id('mri-safety-screening'),
          examSlug: 'mri-knee',
          questionnaireResult: 'yes',
        })
      ).statusCode,
    ).toBe(400);
    expect(await temporaryAnswers()).toBe(before);
  });

  it('evaluates the outcomes on the stored answers: pacemaker denies, CT contrast sets documents, pregnancy makes a request', async () => {
    const key = await newKey();
    expect(await outcomes(key, ['mri-knee'])).toMatchObject({ success: true, message: null });
    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', PACEMAKER)).statusCode).toBe(200);
    const denied = await outcomes(key, ['mri-knee']);
    expect(denied.success).toBe(false);
    expect(denied.message).toMatch(/pacemaker/);

    const ct = await newKey();
    expect(
      (
        await saveTemporary(ct, 'ct-contrast', 'ct-chest', {
          previousReaction: 'yes',
          kidneyDisease: 'no',
          onMetformin: false,
          allergies: ['none'],
        })
      ).statusCode,
    ).toBe(200);
    const [referral] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    expect(await outcomes(ct, ['ct-chest'])).toMatchObject({ success: true, medicareNumberRequired: true, documentTypeId: referral?.id });

    const xr = await newKey();
    const saved = await saveTemporary(xr, 'xray-pregnancy-check', 'xr-chest', { pregnant: 'unsure' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await outcomes(xr, ['xr-chest'])).toMatchObject({ success: true, createBookingRequest: true });
    expect((await post('/api/questionnaires/outcomes', { bookingKey: 'B'.repeat(22), exams: ['xr-chest'] })).statusCode).toBe(404);
  });

  it('re-keys temporary answers to a fresh key and retires the old one', async () => {
    const old = await newKey();
    const fresh = await newKey();
    expect((await saveTemporary(old, 'mri-safety-screening', 'mri-knee', PACEMAKER)).statusCode).toBe(200);
    const response = await post('/api/questionnaires/re-key', { oldBookingKey: old, newBookingKey: fresh });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ bookingKey: fresh, moved: 1 });
    expect((await outcomes(fresh, ['mri-knee'])).success).toBe(false);
    expect((await get(`/api/questionnaires?bookingKey=${old}&exams=mri-knee`)).statusCode).toBe(404);
    // A key that already holds answers cannot receive others; an unknown one is 404.
    const third = await newKey();
    expect((await saveTemporary(third, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(200);
    expect((await post('/api/questionnaires/re-key', { oldBookingKey: fresh, newBookingKey: third })).statusCode).toBe(400);
    expect((await post('/api/questionnaires/re-key', { oldBookingKey: fresh, newBookingKey: 'C'.repeat(22) })).statusCode).toBe(404);
  });

  it('refuses a booking its answers deny (409, nothing booked); a safe one books and the answers move to the appointment', async () => {
    const slots = await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-23');
    const startsAt = slots[0]?.startsAt ?? '';
    const key = await newKey();
    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', PACEMAKER)).statusCode).toBe(200);
    const appointments = await countRows(server.db, 'appointment');
    const body = {
      exams: ['mri-knee'],
      clinicSlug: 'parramatta',
      startsAt,
      patient: patient({ dateOfBirth: '1980-04-05' }),
      questionnaireKey: key,
    };
    const denied = await book(server.app, body);
    expect(denied.statusCode, denied.body).toBe(409);
    expect(denied.json()).toMatchObject({ code: 'booking_denied' });
    expect(denied.json<{ message: string }>().message).toMatch(/pacemaker/);
    expect(await countRows(server.db, 'appointment')).toBe(appointments);

    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(200);
    const booked = await book(server.app, body);
    expect(booked.statusCode, booked.body).toBe(201);
    const bookingKey = booked.json<{ bookingKey: string }>().bookingKey;
    const stored = await server.db.query<{ owner_type: string; owner_key: string }>(
      `select owner_type, owner_key from questionnaire_answer where owner_key in ($1, $2)`,
      [key, bookingKey],
    );
    expect(stored).toEqual([{ owner_type: 'APPOINTMENT', owner_key: bookingKey }]);
    // The temporary key is used up.
    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(404);

    const signed = await signIn(server.app, bookingKey, '1980-04-05');
    const pending = await signed.get(`/api/questionnaires/appointments/${bookingKey}`);
    expect(pending.statusCode, pending.body).toBe(200);
    const view = pending.json<PendingQuestionnairesResponse>();
    expect(view.answers).toEqual([
      expect.objectContaining({ questionnaireType: 'BOOKING_FORM', examSlug: 'mri-knee', questionnaireResult: MRI_SAFE }),
    ]);
    expect(view.questionnaires.map((item) => [item.questionnaire.slug, item.answered])).toEqual([['before-your-visit', false]]);
    expect(view.allAnswered).toBe(false);

    // An unknown questionnaire key is a 400 and books nothing.
    const unknown = await book(server.app, { ...body, questionnaireKey: 'D'.repeat(22), startsAt: slots[2]?.startsAt ?? '' });
    expect(unknown.statusCode, unknown.body).toBe(400);
  });

  it('saves post-booking answers by type: confirmation form, pain score, cancel questionnaire cancels, protocol on a request', async () => {
    const booked = await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-23', slot: 4 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const base = `/api/questionnaires/appointments/${booked.bookingKey}`;

    const partial = await signed.post(`${base}/answers`, {
      questionnaireId: id('before-your-visit'),
      questionnaireResult: { needsInterpreter: true, mobility: 'none' },
    });
    expect(partial.statusCode, partial.body).toBe(400);
    const form = await signed.post(`${base}/answers`, {
      questionnaireId: id('before-your-visit'),
      questionnaireResult: { needsInterpreter: true, interpreterLanguage: 'Vietnamese', mobility: 'none' },
    });
    expect(form.statusCode, form.body).toBe(200);
    expect((await signed.get(base)).json<PendingQuestionnairesResponse>().allAnswered).toBe(true);

    // Pain scores only through /pain-score, and only with a score in range.
    expect(
      (await signed.post(`${base}/answers`, { questionnaireId: id('pain-score-initial'), questionnaireResult: { painScore: 4 } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await signed.post(`${base}/pain-score`, { questionnaireId: id('pain-score-initial'), questionnaireResult: { painScore: 14 } }))
        .statusCode,
    ).toBe(400);
    const pain = await signed.post(`${base}/pain-score`, {
      questionnaireId: id('pain-score-initial'),
      questionnaireResult: { painScore: 4 },
    });
    expect(pain.statusCode, pain.body).toBe(200);
    const painList = (await signed.get(`${base}?types=PAIN_SCORE_INITIAL,PAIN_SCORE_FINAL`)).json<PendingQuestionnairesResponse>();
    expect(painList.questionnaires.map((item) => [item.questionnaire.type, item.answered])).toEqual([
      ['PAIN_SCORE_INITIAL', true],
      ['PAIN_SCORE_FINAL', false],
    ]);
    expect((await signed.get(`${base}?types=PROTOCOL`)).statusCode).toBe(400);

    // The provider cancels through the questionnaire instead of the reason dialog (docs/rules/questionnaires.md).
    await server.db.query('update self_service_settings set cancel_questionnaire_required = true');
    const cancel = await signed.post(`${base}/answers`, {
      questionnaireId: id('cancel-appointment'),
      questionnaireResult: { reason: 'unwell' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ questionnaireType: 'CANCEL_APPOINTMENT_PATIENT', appointmentStatus: 'CANCELED' });
    expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['CANCELED']);
    // Cancelling again is refused by the appointments rules and stores nothing new.
    const count = await countRows(server.db, 'questionnaire_answer');
    expect(
      (await signed.post(`${base}/answers`, { questionnaireId: id('cancel-appointment'), questionnaireResult: { reason: 'time' } }))
        .statusCode,
    ).toBe(409);
    expect(await countRows(server.db, 'questionnaire_answer')).toBe(count);

    const chloe = await signIn(server.app, CHLOE_REQUEST.bookingKey, CHLOE_REQUEST.dateOfBirth, 'BOOKING_REQUEST');
    const requestBase = `/api/questionnaires/booking-requests/${CHLOE_REQUEST.bookingKey}`;
    expect((await chloe.get(requestBase)).json<PendingQuestionnairesResponse>().allAnswered).toBe(false);
    const protocol = await chloe.post(`${requestBase}/answers`, {
      questionnaireId: id('protocol-questions'),
      questionnaireResult: { previousImaging: false, symptomsSince: '2026-01-15' },
    });
    expect(protocol.statusCode, protocol.body).toBe(200);
    expect((await chloe.get(requestBase)).json<PendingQuestionnairesResponse>().allAnswered).toBe(true);
  });

  it('answers 401 on every post-booking endpoint for another booking’s session or none, and changes nothing', async () => {
    const amelia = await signIn(server.app, AMELIA.bookingKey, AMELIA.dateOfBirth);
    const nobody = signedAs(server.app, client(server.app, newAddress()));
    const victim = (await bookThrough(server.app, { exams: 'mri-knee', clinic: 'parramatta', date: '2026-03-24' })).bookingKey;
    const before = await countRows(server.db, 'questionnaire_answer');
    const body = { questionnaireId: id('before-your-visit'), questionnaireResult: { needsInterpreter: false, mobility: 'none' } };
    for (const signed of [amelia, nobody]) {
      const calls: Array<[string, Promise<LightMyRequestResponse>]> = [
        ['list', signed.get(`/api/questionnaires/appointments/${victim}`)],
        ['answers', signed.post(`/api/questionnaires/appointments/${victim}/answers`, body)],
        [
          'pain-score',
          signed.post(`/api/questionnaires/appointments/${victim}/pain-score`, {
            questionnaireId: id('pain-score-initial'),
            questionnaireResult: { painScore: 1 },
          }),
        ],
        [
          'cancel',
          signed.post(`/api/questionnaires/appointments/${victim}/answers`, {
            questionnaireId: id('cancel-appointment'),
            questionnaireResult: { reason: 'unwell' },
          }),
        ],
        ['malformed body', signed.post(`/api/questionnaires/appointments/${victim}/answers`, { nonsense: true })],
        ['request list', signed.get(`/api/questionnaires/booking-requests/${CHLOE_REQUEST.bookingKey}`)],
        ['request answers', signed.post(`/api/questionnaires/booking-requests/${CHLOE_REQUEST.bookingKey}/answers`, body)],
        // Amelia's own key, but as a booking request: a session is for one subject type.
        ['own key as a request', signed.get(`/api/questionnaires/booking-requests/${AMELIA.bookingKey}`)],
      ];
      for (const [name, call] of calls) expect((await call).statusCode, name).toBe(401);
    }
    expect(await countRows(server.db, 'questionnaire_answer')).toBe(before);
    expect((await rowsOf(server.db, victim)).map((row) => row.status)).toEqual(['BOOKED']);
    expect((await amelia.get(`/api/questionnaires/appointments/${AMELIA.bookingKey}`)).statusCode).toBe(200);
  });

  it('moves the answers to a booking request, and refuses a request its answers deny', async () => {
    const request = (questionnaireKey: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/booking/booking-requests',
        headers: { 'idempotency-key': randomUUID() },
        payload: { exams: ['ct-coronary-angiogram'], patient: patient({ dateOfBirth: '1975-06-07' }), questionnaireKey },
      });
    const key = await newKey();
    const answer = { previousReaction: 'no', kidneyDisease: 'no', onMetformin: false, allergies: ['none'] };
    expect((await saveTemporary(key, 'ct-contrast', 'ct-coronary-angiogram', answer)).statusCode).toBe(200);
    const created = await request(key);
    expect(created.statusCode, created.body).toBe(201);
    const bookingKey = created.json<{ bookingKey: string }>().bookingKey;
    expect(await server.db.query(`select owner_type from questionnaire_answer where owner_key = $1`, [bookingKey])).toEqual([
      { owner_type: 'BOOKING_REQUEST' },
    ]);

    // A provider outcome that denies booking requests for this answer.
    await server.db.query(
      `update questionnaire set outcomes = outcomes || '[{"type":"DENY_BOOKING_REQUEST","condition":"{onMetformin} = true","result":"Please call us to book this scan."}]'::jsonb where slug = 'ct-contrast'`,
    );
    const denyKey = await newKey();
    expect((await saveTemporary(denyKey, 'ct-contrast', 'ct-coronary-angiogram', { ...answer, onMetformin: true })).statusCode).toBe(200);
    const requests = await countRows(server.db, 'booking_request');
    const denied = await request(denyKey);
    expect(denied.statusCode, denied.body).toBe(409);
    expect(denied.json()).toMatchObject({ code: 'booking_denied', message: 'Please call us to book this scan.' });
    expect(await countRows(server.db, 'booking_request')).toBe(requests);
  });
});
