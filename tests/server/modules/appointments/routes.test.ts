import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AppointmentSummarySchema,
  CanChangeResponseSchema,
  ChangeNotAllowedDetailsSchema,
  ConsentFormsResponseSchema,
} from '@contract/api/appointments';
import { ApiErrorBodySchema } from '@contract/errors';
import { MAX_OPEN_DETAILS_REQUESTS } from '../../../../src-server/modules/appointments/service';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { countRows } from '../booking/booking-test-kit';
import { lastAuditId, setOtpRequired } from '../patient-access/sign-in-kit';
import { auditSince, bookThrough, isFree, rowsOf, signIn, summaryOf } from './self-service-kit';

// SEED_NOW is Tuesday 2026-03-10 12:00 in Sydney (UTC+11). Demo rules (self-service.json):
// priorMinutes 1440, walk-in reschedule not allowed, five cancel reasons, three consent forms
// (one general, one MR, one CT). Parramatta has one MR resource (MR1), so two MRI bookings
// cannot share a time there.

const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };
const OLIVER_CANCELED = { bookingKey: 'Nj3PQywTfwZs5UvmttODPA', dateOfBirth: '1957-01-30' };
const JACK_ON_HOLD = { bookingKey: 'r2gio7z_AuIa9srd_WgtNw', dateOfBirth: '1958-05-17' };
const EVELYN_TOMORROW = { bookingKey: 'jlx0B3-koE9P5H7Alnmy8A', dateOfBirth: '1951-02-11' };
const MINUTE = 60_000;

describe.each(backends())('appointment self-service on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
  beforeAll(() => setOtpRequired(server.db, false));

  const url = (key: string, rest = ''): string => `/api/appointments/${key}${rest}`;

  describe('summary', () => {
    it('answers the booking with exam, clinic, time, preparation, masked contact details and the rules', async () => {
      const liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
      const response = await liam.get(url(LIAM.bookingKey));
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const summary = AppointmentSummarySchema.parse(response.json());
      expect(summary).toMatchObject({
        bookingKey: LIAM.bookingKey,
        status: 'BOOKED',
        pending: false,
        walkInExam: null,
        confirmed: false,
        canConfirm: true,
        emailUnsubscribed: false,
        cancelQuestionnaireRequired: false,
        priorMinutes: 1440,
        walkInRescheduleAllowed: false,
        patient: { title: 'Mr', firstName: 'Liam', lastName: 'Example', email: 'l***@example.com', contactNumber: '*******006' },
        clinic: { slug: 'parramatta', timeZone: 'Australia/Sydney' },
      });
      expect(summary.appointments).toHaveLength(1);
      expect(summary.appointments[0]).toMatchObject({
        examSlug: 'mri-knee',
        modalityName: 'MRI',
        status: 'BOOKED',
        startsAt: '2026-03-16T22:30:00.000Z',
      });
      expect(summary.clinic.mapUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=-33\.\d+,151\.\d+$/);
      expect(summary.cancelReasons.map((reason) => reason.label)).toContain('The time no longer suits me');
      expect(JSON.stringify(summary)).not.toContain('liam.example@example.com');
    });

    it('answers statuses the patient cannot use with their status (the web app sends them to /deny)', async () => {
      const oliver = await signIn(server.app, OLIVER_CANCELED.bookingKey, OLIVER_CANCELED.dateOfBirth);
      expect((await summaryOf(oliver, OLIVER_CANCELED.bookingKey)).status).toBe('CANCELED');
      const jack = await signIn(server.app, JACK_ON_HOLD.bookingKey, JACK_ON_HOLD.dateOfBirth);
      const onHold = await summaryOf(jack, JACK_ON_HOLD.bookingKey);
      expect(onHold).toMatchObject({ status: 'ON_HOLD', canConfirm: false });
    });

    it('answers 400 for a malformed booking key (after the session check) and 404 for an unknown route', async () => {
      const liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
      expect((await liam.get(url(LIAM.bookingKey, '/can-change?action=DELETE'))).statusCode).toBe(400);
      expect((await liam.get(url(LIAM.bookingKey, '/can-change'))).statusCode).toBe(400);
    });
  });

  describe('cancel', () => {
    it('cannot change within priorMinutes: exactly 1440 minutes before the start is refused, one second earlier is allowed', async () => {
      const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-18', slot: 4 });
      const start = Date.parse(booked.startsAt);
      try {
        clock.set(new Date(start - 1440 * MINUTE));
        const atLimit = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
        const check = CanChangeResponseSchema.parse((await atLimit.get(url(booked.bookingKey, '/can-change?action=CANCEL'))).json());
        expect(check).toEqual({ canChange: false, reason: 'PRIOR_MINUTES', priorMinutes: 1440 });
        const refused = await atLimit.post(url(booked.bookingKey, '/cancel'), { reason: { label: 'Other' } });
        expect(refused.statusCode).toBe(409);
        const body = ApiErrorBodySchema.parse(refused.json());
        expect(body.code).toBe('change_not_allowed');
        expect(ChangeNotAllowedDetailsSchema.parse(body.details)).toEqual({ reason: 'PRIOR_MINUTES', priorMinutes: 1440 });
        expect(body.message).toContain('1440 minutes');
        expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);

        clock.set(new Date(start - 1440 * MINUTE - 1000));
        const justBefore = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
        expect(CanChangeResponseSchema.parse((await justBefore.get(url(booked.bookingKey, '/can-change?action=CANCEL'))).json())).toEqual({
          canChange: true,
          reason: null,
          priorMinutes: 1440,
        });
        expect((await justBefore.get(url(booked.bookingKey, '/can-change?action=RESCHEDULE'))).json()).toMatchObject({ canChange: true });
        const cancelled = await justBefore.post(url(booked.bookingKey, '/cancel'), { reason: { label: 'Other' } });
        expect(cancelled.statusCode, cancelled.body).toBe(200);
        expect(AppointmentSummarySchema.parse(cancelled.json()).status).toBe('CANCELED');
      } finally {
        clock.set(SEED_NOW);
      }
    });

    it('refuses a demo booking that starts tomorrow morning (inside 24 hours) for both actions', async () => {
      const evelyn = await signIn(server.app, EVELYN_TOMORROW.bookingKey, EVELYN_TOMORROW.dateOfBirth);
      for (const action of ['CANCEL', 'RESCHEDULE']) {
        expect((await evelyn.get(url(EVELYN_TOMORROW.bookingKey, `/can-change?action=${action}`))).json()).toEqual({
          canChange: false,
          reason: 'PRIOR_MINUTES',
          priorMinutes: 1440,
        });
      }
    });

    it('validates the reason against the configured list and the note length; a bad request changes nothing', async () => {
      const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-19', slot: 2 });
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const since = await lastAuditId(server.db);
      const missing = await signed.post(url(booked.bookingKey, '/cancel'), {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ code: 'validation_failed', details: [{ in: 'body/reason' }] });
      const unknown = await signed.post(url(booked.bookingKey, '/cancel'), { reason: { label: 'The moon is in the wrong phase' } });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({
        code: 'validation_failed',
        details: [{ in: 'body/reason/label', message: 'Please choose one of the listed reasons.' }],
      });
      const longNote = await signed.post(url(booked.bookingKey, '/cancel'), { reason: { label: 'Other' }, note: 'x'.repeat(501) });
      expect(longNote.statusCode).toBe(400);
      const extra = await signed.post(url(booked.bookingKey, '/cancel'), { reason: { label: 'Other' }, refund: true });
      expect(extra.statusCode).toBe(400);
      expect((await rowsOf(server.db, booked.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);
      expect(await auditSince(server.db, since)).toEqual([]);
    });

    it('cancels with a reason and a note: CANCELED, the time is free again, the change is logged and audited without personal data', async () => {
      const booked = await bookThrough(server.app, { exams: 'mri-shoulder', clinic: 'parramatta', date: '2026-03-19', slot: 3 });
      expect(await isFree(server.app, 'mri-shoulder', 'parramatta', booked.startsAt)).toBe(false);
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const since = await lastAuditId(server.db);
      const response = await signed.post(url(booked.bookingKey, '/cancel'), {
        reason: { label: 'I am feeling better' },
        note: 'Pain went away.',
      });
      expect(response.statusCode, response.body).toBe(200);
      const summary = AppointmentSummarySchema.parse(response.json());
      expect(summary.status).toBe('CANCELED');
      expect(summary.appointments.map((item) => item.status)).toEqual(['CANCELED']);
      expect(await isFree(server.app, 'mri-shoulder', 'parramatta', booked.startsAt)).toBe(true);
      const [change] = await server.db.query<{ action: string; reason_label: string; note: string; to_status: string }>(
        'select action, reason_label, note, to_status from appointment_change where booking_key = $1',
        [booked.bookingKey],
      );
      expect(change).toEqual({ action: 'CANCEL', reason_label: 'I am feeling better', note: 'Pain went away.', to_status: 'CANCELED' });
      const audit = await auditSince(server.db, since);
      expect(audit).toEqual([
        { actor: 'patient', action: 'appointment.cancelled', details: { from: 'BOOKED', withReason: true, withNote: true } },
      ]);
      expect(JSON.stringify(audit)).not.toMatch(/feeling|Pain/);

      const again = await signed.post(url(booked.bookingKey, '/cancel'), { reason: { label: 'Other' } });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'change_not_allowed', details: { reason: 'APPOINTMENT_CANCELLED' } });
      expect((await signed.get(url(booked.bookingKey, '/can-change?action=RESCHEDULE'))).json()).toMatchObject({
        canChange: false,
        reason: 'APPOINTMENT_CANCELLED',
      });
    });

    it('cancels through the questionnaire, not the plain call, when the provider uses the cancel questionnaire instead', async () => {
      await server.db.query('update self_service_settings set cancel_questionnaire_required = true');
      try {
        const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-19', slot: 6 });
        const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
        expect((await summaryOf(signed, booked.bookingKey)).cancelQuestionnaireRequired).toBe(true);
        // Answering the questionnaire cancels, without a reason (routes.web-rules.test.ts); the plain call is refused.
        const response = await signed.post(url(booked.bookingKey, '/cancel'), {});
        expect(response.statusCode, response.body).toBe(409);
      } finally {
        await server.db.query('update self_service_settings set cancel_questionnaire_required = false');
      }
    });
  });

  describe('request reschedule, confirm, unsubscribe', () => {
    it('request-reschedule sets REQUEST_RESCHEDULE (the time stays held) and keeps the note in the change log', async () => {
      // Bondi Junction has one ultrasound room, so a held time is not offered again.
      const booked = await bookThrough(server.app, { exams: 'us-abdomen', clinic: 'bondi-junction', date: '2026-03-18', slot: 1 });
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const response = await signed.post(url(booked.bookingKey, '/request-reschedule'), { note: 'Afternoons please' });
      expect(response.statusCode, response.body).toBe(200);
      expect(AppointmentSummarySchema.parse(response.json()).status).toBe('REQUEST_RESCHEDULE');
      expect(await isFree(server.app, 'us-abdomen', 'bondi-junction', booked.startsAt)).toBe(false);
      const [change] = await server.db.query<{ note: string }>(`select note from appointment_change where booking_key = $1`, [
        booked.bookingKey,
      ]);
      expect(change?.note).toBe('Afternoons please');
      const changesAfterFirst = await countRows(server.db, 'appointment_change');
      const empty = await signed.post(url(booked.bookingKey, '/request-reschedule'));
      expect(empty.statusCode, empty.body).toBe(200);
      expect(await countRows(server.db, 'appointment_change')).toBe(changesAfterFirst);
      const oliver = await signIn(server.app, OLIVER_CANCELED.bookingKey, OLIVER_CANCELED.dateOfBirth);
      expect((await oliver.post(url(OLIVER_CANCELED.bookingKey, '/request-reschedule'), {})).statusCode).toBe(409);
    });

    it('confirm sets CONFIRMED once (a second confirm changes nothing); a cancelled booking cannot be confirmed', async () => {
      const booked = await bookThrough(server.app, { exams: 'us-abdomen', clinic: 'chatswood', date: '2026-03-18', slot: 3 });
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const since = await lastAuditId(server.db);
      const response = await signed.post(url(booked.bookingKey, '/confirm'));
      expect(response.statusCode, response.body).toBe(200);
      expect(AppointmentSummarySchema.parse(response.json())).toMatchObject({ status: 'CONFIRMED', confirmed: true, canConfirm: false });
      expect((await signed.post(url(booked.bookingKey, '/confirm'))).statusCode).toBe(200);
      expect((await auditSince(server.db, since)).map((row) => row.action)).toEqual(['appointment.confirmed']);
      const oliver = await signIn(server.app, OLIVER_CANCELED.bookingKey, OLIVER_CANCELED.dateOfBirth);
      const refused = await oliver.post(url(OLIVER_CANCELED.bookingKey, '/confirm'));
      expect(refused.json()).toMatchObject({ code: 'change_not_allowed', details: { reason: 'APPOINTMENT_CANCELLED' } });
    });

    it('unsubscribe marks the patient as unsubscribed, once', async () => {
      const booked = await bookThrough(server.app, { exams: 'us-abdomen', clinic: 'chatswood', date: '2026-03-18', slot: 5 });
      const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
      const since = await lastAuditId(server.db);
      const response = await signed.post(url(booked.bookingKey, '/unsubscribe'));
      expect(response.statusCode, response.body).toBe(200);
      expect(AppointmentSummarySchema.parse(response.json()).emailUnsubscribed).toBe(true);
      await signed.post(url(booked.bookingKey, '/unsubscribe'));
      expect((await auditSince(server.db, since)).map((row) => row.action)).toEqual(['patient.email_unsubscribed']);
    });
  });

  describe('consent forms', () => {
    it("lists the general and the exam's modality forms (sanitised), signs one, and notifies until all are signed", async () => {
      await server.db.query(
        `insert into consent_form (slug, title, html, position) values ('scripted', 'Scripted form', '<p onclick="steal()">Agree<script>alert(1)</script> <a href="javascript:alert(2)">here</a></p>', 9)`,
      );
      try {
        const liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
        const response = await liam.get(url(LIAM.bookingKey, '/consent-forms'));
        expect(response.statusCode).toBe(200);
        const forms = ConsentFormsResponseSchema.parse(response.json());
        expect(forms.appointmentConsentForms.map((form) => form.title)).toEqual([
          'Privacy and consent to examination',
          'MRI safety questionnaire and consent',
          'Scripted form',
        ]);
        expect(forms.notifyPatient).toBe(true);
        const scripted = forms.appointmentConsentForms[2];
        expect(scripted?.html).toBe('<p>Agree <a>here</a></p>');
        const privacy = forms.appointmentConsentForms[0];
        expect(privacy?.html).toContain('rel="noopener noreferrer"');

        const [ct] = await server.db.query<{ id: string }>(`select id::text as id from consent_form where slug = 'ct-contrast'`);
        expect(
          (await liam.put(url(LIAM.bookingKey, `/consent-forms/${ct?.id ?? ''}`), { signedName: 'Liam Example', agreed: true })).statusCode,
        ).toBe(404);
        expect(
          (await liam.put(url(LIAM.bookingKey, `/consent-forms/${randomUUID()}`), { signedName: 'Liam Example', agreed: true })).statusCode,
        ).toBe(404);
        expect(
          (await liam.put(url(LIAM.bookingKey, `/consent-forms/${privacy?.id ?? ''}`), { signedName: 'Liam Example', agreed: false }))
            .statusCode,
        ).toBe(400);
        expect(
          (await liam.put(url(LIAM.bookingKey, `/consent-forms/${privacy?.id ?? ''}`), { signedName: '   ', agreed: true })).statusCode,
        ).toBe(400);
        expect(await countRows(server.db, 'consent_signature')).toBe(0);

        for (const form of forms.appointmentConsentForms) {
          const signed = await liam.put(url(LIAM.bookingKey, `/consent-forms/${form.id}`), { signedName: ' Liam Example ', agreed: true });
          expect(signed.statusCode, signed.body).toBe(200);
          expect(signed.json()).toMatchObject({ id: form.id, signed: true, signedName: 'Liam Example', signedAt: SEED_NOW });
        }
        expect(ConsentFormsResponseSchema.parse((await liam.get(url(LIAM.bookingKey, '/consent-forms'))).json()).notifyPatient).toBe(false);
      } finally {
        await server.db.query(`delete from consent_signature`);
        await server.db.query(`delete from consent_form where slug = 'scripted'`);
      }
    });
  });

  describe('details change request', () => {
    it('stores only the fields asked for, validated like the booking form (a bad request stores nothing)', async () => {
      const liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
      const path = url(LIAM.bookingKey, '/details-change-request');
      const bad = [
        {},
        { note: '' },
        { email: 'not-an-email' },
        { contactNumber: '04 1234' },
        { firstName: '<script>' },
        { dateOfBirth: '2026-02-30' },
        { dateOfBirth: '2030-01-01' },
        { postcode: '12345' },
        { shoeSize: '44' },
      ];
      for (const payload of bad) {
        const response = await liam.post(path, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      }
      expect(await countRows(server.db, 'details_change_request')).toBe(0);
      const since = await lastAuditId(server.db);
      const response = await liam.post(path, { lastName: "O'Example", email: 'liam.new@example.com', note: 'Married last month' });
      expect(response.statusCode, response.body).toBe(201);
      const { id } = response.json<{ id: string }>();
      const [row] = await server.db.query<{ changes: Record<string, string>; note: string; status: string }>(
        'select changes, note, status from details_change_request where id = $1',
        [id],
      );
      expect(row).toEqual({
        changes: { lastName: "O'Example", email: 'liam.new@example.com' },
        note: 'Married last month',
        status: 'OPEN',
      });
      const audit = await auditSince(server.db, since);
      expect(audit).toEqual([
        {
          actor: 'patient',
          action: 'patient.details_change_requested',
          details: { request: id, fields: ['lastName', 'email'], withNote: true },
        },
      ]);

      // At most MAX_OPEN_DETAILS_REQUESTS wait for staff at once.
      for (let index = 1; index < MAX_OPEN_DETAILS_REQUESTS; index++)
        expect((await liam.post(path, { postcode: '2150' })).statusCode).toBe(201);
      const tooMany = await liam.post(path, { postcode: '2150' });
      expect(tooMany.statusCode).toBe(429);
      expect(tooMany.json()).toMatchObject({ code: 'too_many_requests' });
      expect(await countRows(server.db, 'details_change_request')).toBe(MAX_OPEN_DETAILS_REQUESTS);
    });
  });
});
