import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { slotsOn } from '../booking/booking-test-kit';
import { bookThrough, reschedule, rowsOf, signIn, summaryOf } from './self-service-kit';

// Self-service rules the web app checks before it calls the server, called directly as a script
// would (docs/rules/server-enforced.md#appointments). SEED_NOW is Tuesday 2026-03-10 12:00 in
// Sydney; priorMinutes 1440.

const MINUTE = 60_000;

describe.each(backends())('self-service rules the web checks, enforced by the server on %s', (backend) => {
  const server = useTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));
  afterEach(async () => {
    await server.db.query('update self_service_settings set cancel_questionnaire_required = false');
  });

  const url = (key: string, rest: string): string => `/api/appointments/${key}${rest}`;

  it('refuses the plain cancel while the provider requires the cancel questionnaire (409); answering it cancels', async () => {
    await server.db.query('update self_service_settings set cancel_questionnaire_required = true');
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-19', slot: 7 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    expect((await summaryOf(signed, booked.bookingKey)).cancelQuestionnaireRequired).toBe(true);

    // The web sends the patient to the CANCEL_APPOINTMENT_PATIENT questionnaire instead of this call.
    const plain = await signed.post(url(booked.bookingKey, '/cancel'), {});
    expect(plain.statusCode, plain.body).toBe(409);
    expect(plain.json()).toMatchObject({ code: 'conflict', details: { questionnaireType: 'CANCEL_APPOINTMENT_PATIENT' } });
    expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);

    const [questionnaire] = await server.db.query<{ id: string }>(
      `select id::text as id from questionnaire where type = 'CANCEL_APPOINTMENT_PATIENT' limit 1`,
    );
    const answered = await signed.post(`/api/questionnaires/appointments/${booked.bookingKey}/answers`, {
      questionnaireId: questionnaire?.id,
      questionnaireResult: { reason: 'unwell' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['CANCELED']);
  });

  it('refuses to confirm a booking whose time has passed (the web shows Confirm only when canConfirm)', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-19', slot: 9 });
    server.clock.set(new Date(new Date(booked.startsAt).getTime() + MINUTE));
    try {
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      expect((await summaryOf(signed, booked.bookingKey)).canConfirm).toBe(false);
      const refused = await signed.post(url(booked.bookingKey, '/confirm'));
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'change_not_allowed' });
      expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);
    } finally {
      server.clock.set(new Date('2026-03-10T01:00:00.000Z'));
    }
  });

  it('refuses the text fields over the lengths the dialogs allow: consent name 200, details-change note 1000', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-19', slot: 11 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const forms = (await signed.get(url(booked.bookingKey, '/consent-forms'))).json<{ appointmentConsentForms: { id: string }[] }>();
    const formId = forms.appointmentConsentForms[0]?.id ?? '';
    const longName = await signed.put(url(booked.bookingKey, `/consent-forms/${formId}`), { signedName: 'N'.repeat(201), agreed: true });
    expect(longName.statusCode, longName.body).toBe(400);
    const longNote = await signed.post(url(booked.bookingKey, '/details-change-request'), { lastName: 'Example', note: 'n'.repeat(1001) });
    expect(longNote.statusCode, longNote.body).toBe(400);
    const stored = await server.db.query<{ n: number }>(
      `select (select count(*) from consent_signature)::int + (select count(*) from details_change_request where booking_key = $1)::int as n`,
      [booked.bookingKey],
    );
    expect(stored[0]?.n).toBe(0);
  });

  it('refuses a change (CHANGED) to an enquiry-only exam, to exams of two modalities, or at a clinic without the exam; the booking keeps its time', async () => {
    const booked = await bookThrough(server.app, { exams: 'ct-brain', clinic: 'parramatta', date: '2026-03-25', slot: 2 });
    const target = (await slotsOn(server.app, 'ct-chest', 'parramatta', '2026-03-26'))[2]?.startsAt ?? '';
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    for (const [exams, clinicSlug, message] of [
      [['ct-coronary-angiogram'], 'parramatta', /no online times/],
      [['ct-chest', 'xr-chest'], 'parramatta', /different modalities/],
      [['mri-knee'], 'bondi-junction', /not offered/],
    ] as const) {
      const refused = await reschedule(signed, booked.bookingKey, { context: 'CHANGED', clinicSlug, startsAt: target, exams });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json<{ message: string }>().message).toMatch(message);
    }
    expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);
  });
});
