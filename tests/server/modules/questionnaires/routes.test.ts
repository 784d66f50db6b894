import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeProcessingResult, PendingQuestionnairesResponse, QuestionnaireListResponse } from '@contract/api/questionnaires';
import { randomUUID } from 'node:crypto';
import { KEYS_PER_WINDOW } from '../../../../src-server/modules/questionnaires/routes';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, countRows, patient, slotsOn } from '../booking/booking-test-kit';
import { client, newAddress, setOtpRequired } from '../patient-access/sign-in-kit';
import { bookThrough, CLIENT_HEADERS, rowsOf, signedAs, signIn } from '../appointments/self-service-kit';

// Issue 5 through the real API on a seeded database: temporary answers under a booking key,
// re-keying, outcomes evaluated by the server on the STORED answers, a denied booking refused by
// the booking endpoint, answers moving to the appointment, post-booking saving per type, and
// a 401 for every post-booking endpoint with another booking's session.

const MRI_SAFE = { pacemaker: 'no', hasImplants: false, metalInEyes: 'no', claustrophobia: false, weightKg: 82 };
const PACEMAKER = { ...MRI_SAFE, pacemaker: 'yes' };
const AMELIA = { bookingKey: 'RTZZ7AsePVS1c6abT-l4BA', dateOfBirth: '1968-11-02' };
const CHLOE_REQUEST = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };

describe.each(backends())('questionnaires on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
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

  it('never trusts the web app to follow the outcomes: Medicare number, booking request instead, validation code; records the document to bring', async () => {
    const { medicareNumber, ...withoutMedicare } = patient({ dateOfBirth: '1972-02-03' });
    const ctSlots = await slotsOn(server.app, 'ct-chest', 'parramatta', '2026-03-24');
    expect(ctSlots.length).toBeGreaterThan(2);
    // A previous contrast reaction: Medicare number required, the referral must be brought.
    const ctKey = await newKey();
    const reaction = { previousReaction: 'yes', kidneyDisease: 'no', onMetformin: false, allergies: ['none'] };
    expect((await saveTemporary(ctKey, 'ct-contrast', 'ct-chest', reaction)).statusCode).toBe(200);
    expect(await outcomes(ctKey, ['ct-chest'])).toMatchObject({
      medicareNumberRequired: true,
      documentType: { title: 'Referral', description: expect.stringContaining('referral') },
    });
    const appointments = await countRows(server.db, 'appointment');
    const ctBody = { exams: ['ct-chest'], clinicSlug: 'parramatta', startsAt: ctSlots[0]?.startsAt ?? '', questionnaireKey: ctKey };
    const noMedicare = await book(server.app, { ...ctBody, patient: withoutMedicare });
    expect(noMedicare.statusCode, noMedicare.body).toBe(400);
    expect(noMedicare.json()).toMatchObject({
      details: [{ in: 'body/patient/medicareNumber', message: 'A Medicare number is required for this exam.' }],
    });
    expect(await countRows(server.db, 'appointment')).toBe(appointments);
    expect(await temporaryAnswers()).toBeGreaterThan(0);

    const booked = await book(server.app, { ...ctBody, patient: { ...withoutMedicare, medicareNumber } });
    expect(booked.statusCode, booked.body).toBe(201);
    const bookingKey = booked.json<{ bookingKey: string }>().bookingKey;
    const signed = await signIn(server.app, bookingKey, '1972-02-03');
    const summary = await signed.get(`/api/appointments/${bookingKey}`);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toMatchObject({ requiredDocument: { title: 'Referral' } });

    // Pregnant: an X-ray becomes a booking request; booking a time for it anyway is refused.
    const xrSlots = await slotsOn(server.app, 'xr-chest', 'parramatta', '2026-03-24');
    expect(xrSlots.length).toBeGreaterThan(0);
    const xrKey = await newKey();
    const xrList = (await get(`/api/questionnaires?bookingKey=${xrKey}&exams=xr-chest`)).json<QuestionnaireListResponse>();
    const pregnancy = xrList.questionnaires.find((item) => item.questionnaire.slug === 'xray-pregnancy-check');
    expect(pregnancy).toBeDefined();
    expect((await saveTemporary(xrKey, 'xray-pregnancy-check', pregnancy?.examSlug ?? undefined, { pregnant: 'yes' })).statusCode).toBe(
      200,
    );
    const xrBody = {
      exams: ['xr-chest'],
      clinicSlug: 'parramatta',
      startsAt: xrSlots[0]?.startsAt ?? '',
      patient: patient(),
      questionnaireKey: xrKey,
    };
    const asTime = await book(server.app, xrBody);
    expect(asTime.statusCode, asTime.body).toBe(409);
    expect(asTime.json()).toMatchObject({ code: 'booking_denied', message: expect.stringContaining('booking request instead') });
    const asRequest = await server.app.inject({
      method: 'POST',
      url: '/api/booking/booking-requests',
      headers: { 'idempotency-key': randomUUID() },
      payload: { exams: ['xr-chest'], patient: patient(), questionnaireKey: xrKey },
    });
    expect(asRequest.statusCode, asRequest.body).toBe(201);

    // A provider outcome asking for a validation code: refused without one, kept (normalised) with one.
    await server.db.query(
      `update questionnaire set outcomes = outcomes || '[{"type":"VALIDATION_CODE_REQUIRED","condition":"{kidneyDisease} = ''unsure''","result":""}]'::jsonb where slug = 'ct-contrast'`,
    );
    const codeKey = await newKey();
    expect(
      (await saveTemporary(codeKey, 'ct-contrast', 'ct-chest', { ...reaction, previousReaction: 'no', kidneyDisease: 'unsure' }))
        .statusCode,
    ).toBe(200);
    const codeBody = {
      exams: ['ct-chest'],
      clinicSlug: 'parramatta',
      startsAt: ctSlots[2]?.startsAt ?? '',
      patient: patient(),
      questionnaireKey: codeKey,
    };
    const noCode = await book(server.app, codeBody);
    expect(noCode.statusCode, noCode.body).toBe(400);
    expect(noCode.json()).toMatchObject({ details: [{ in: 'body/validationCode' }] });
    const badCode = await book(server.app, { ...codeBody, validationCode: 'x!' });
    expect(badCode.statusCode, badCode.body).toBe(400);
    const withCode = await book(server.app, { ...codeBody, validationCode: 'ab-12 cd' });
    expect(withCode.statusCode, withCode.body).toBe(201);
    const recorded = await server.db.query<{ validation_code: string; title: string }>(
      `select o.validation_code, d.title from booking_outcome o join document_type d on d.id = o.document_type_id where o.owner_key = $1`,
      [withCode.json<{ bookingKey: string }>().bookingKey],
    );
    expect(recorded).toEqual([{ validation_code: 'AB12CD', title: 'Blood test results' }]);
  });

  it('serves the HTML inside a questionnaire sanitised (a provider mistake is not an XSS)', async () => {
    const [before] = await server.db.query<{ json: object }>(`select json from questionnaire where slug = 'xray-pregnancy-check'`);
    await server.db.query(
      `update questionnaire set json = jsonb_set(json, '{completedHtml}', to_jsonb('<p>Thank you</p><img src=x onerror="alert(1)"><script>alert(2)</script>'::text))
        where slug = 'xray-pregnancy-check'`,
    );
    try {
      const key = await newKey();
      const list = (await get(`/api/questionnaires?bookingKey=${key}&exams=xr-chest`)).json<QuestionnaireListResponse>();
      const served = list.questionnaires.find((item) => item.questionnaire.slug === 'xray-pregnancy-check')?.questionnaire.json as {
        completedHtml?: string;
      };
      expect(served.completedHtml).toBe('<p>Thank you</p>');
    } finally {
      await server.db.query(`update questionnaire set json = $1::jsonb where slug = 'xray-pregnancy-check'`, [
        JSON.stringify(before?.json),
      ]);
    }
  });

  it("finds an appointment's booking by its slug (for /q?appointmentSlug=); unknown or malformed slugs say so", async () => {
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1 limit 1`, [
      AMELIA.bookingKey,
    ]);
    const found = await get(`/api/questionnaires/appointment-slugs/${row?.id ?? ''}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({ bookingKey: AMELIA.bookingKey });
    expect(found.headers['cache-control']).toBe('no-store');
    const unknown = await get(`/api/questionnaires/appointment-slugs/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'We could not find this appointment.' });
    expect((await get('/api/questionnaires/appointment-slugs/not-a-slug')).statusCode).toBe(400);
  });

  it('expires a temporary key 24 hours after it was issued; a later new key sweeps it and its answers', async () => {
    const key = await newKey();
    expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(200);
    clock.advance(24 * 3_600_000 + 1000);
    try {
      expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(404);
      expect((await get(`/api/questionnaires?bookingKey=${key}&exams=mri-knee`)).statusCode).toBe(404);
      await newKey();
      expect(await server.db.query(`select 1 from questionnaire_answer where owner_key = $1`, [key])).toEqual([]);
      expect(await server.db.query(`select 1 from questionnaire_booking_key where booking_key = $1`, [key])).toEqual([]);
    } finally {
      clock.set(SEED_NOW);
    }
  });

  it('with required_before_booking on, refuses a booking whose BOOKING_FORM questionnaires are not all answered', async () => {
    const slots = await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-25');
    const body = {
      exams: ['mri-knee'],
      clinicSlug: 'parramatta',
      startsAt: slots[0]?.startsAt ?? '',
      patient: patient({ dateOfBirth: '1981-02-03' }),
    };
    await server.db.query('update questionnaire_settings set required_before_booking = true');
    try {
      const appointments = await countRows(server.db, 'appointment');
      const withoutKey = await book(server.app, body);
      expect(withoutKey.statusCode, withoutKey.body).toBe(400);
      expect(withoutKey.json()).toMatchObject({ code: 'validation_failed', details: [{ in: 'body/questionnaireKey' }] });
      expect(withoutKey.json<{ message: string }>().message).toContain('MRI safety screening');
      const key = await newKey();
      expect((await book(server.app, { ...body, questionnaireKey: key })).statusCode).toBe(400);
      expect(await countRows(server.db, 'appointment')).toBe(appointments);
      expect((await saveTemporary(key, 'mri-safety-screening', 'mri-knee', MRI_SAFE)).statusCode).toBe(200);
      const booked = await book(server.app, { ...body, questionnaireKey: key });
      expect(booked.statusCode, booked.body).toBe(201);
    } finally {
      await server.db.query('update questionnaire_settings set required_before_booking = false');
    }
  });

  it('limits new temporary keys per client address (429), other addresses unaffected', async () => {
    const ask = (remoteAddress: string) =>
      server.app.inject({ method: 'POST', url: '/api/questionnaires/booking-keys', headers: CLIENT_HEADERS, remoteAddress });
    const statuses: number[] = [];
    for (let index = 0; index <= KEYS_PER_WINDOW; index++) statuses.push((await ask('203.0.113.77')).statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(KEYS_PER_WINDOW);
    expect(statuses.at(-1)).toBe(429);
    expect((await ask('203.0.113.78')).statusCode).toBe(201);
  });

  it('suggests autocomplete values from 3 characters', async () => {
    const response = await get('/api/questionnaires/autocomplete/implants?q=rep');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ suggestions: string[] }>().suggestions).toEqual(['Hip replacement', 'Knee replacement', 'Shoulder replacement']);
    expect(
      (await get('/api/questionnaires/autocomplete/medications?q=met')).json<{ suggestions: string[] }>().suggestions.slice(0, 2),
    ).toEqual(['Metformin', 'Metformin with sitagliptin']);
    expect((await get('/api/questionnaires/autocomplete/implants?q=re')).statusCode).toBe(400);
    expect((await get('/api/questionnaires/autocomplete/unknown-list?q=abc')).statusCode).toBe(404);
  });
});
