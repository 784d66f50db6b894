import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { QuestionnaireListResponse } from '@contract/api/questionnaires';
import { KEYS_PER_WINDOW } from '../../../../src-server/modules/questionnaires/routes';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, countRows, patient, slotsOn } from '../booking/booking-test-kit';
import { CLIENT_HEADERS, signIn } from '../appointments/self-service-kit';
import { MRI_SAFE, useQuestionnaireApi } from './questionnaire-kit';

// Questionnaire rules the server enforces whatever the web app does: outcomes applied to the
// booking, sanitised HTML, key expiry, required answers before booking, the key rate
// limit per address, and autocomplete. The appointment-slug lookup: routes.appointment-slug.test.ts.

describe.each(backends())('questionnaires: what the server enforces itself, on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
  const { get, newKey, saveTemporary, outcomes, temporaryAnswers } = useQuestionnaireApi(server);

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
      const withoutKey = await book(server.app, { ...body, questionnaireKey: undefined });
      expect(withoutKey.statusCode, withoutKey.body).toBe(400);
      expect(withoutKey.json()).toMatchObject({ code: 'questionnaire_required', details: [{ in: 'body/questionnaireKey' }] });
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
