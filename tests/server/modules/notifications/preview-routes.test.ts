import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '@contract/api/locales';
import { EMAIL_PREVIEW_PATH, EmailPreviewSchema } from '@contract/api/notifications';
import { UNSUBSCRIBE_URL_PLACEHOLDER } from '../../../../src-server/modules/notifications/public';
import { subjectRef } from '../../../../src-server/modules/staff-access/public';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { bookThrough, signIn, type Booked } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { ADMIN_CLAIMS, KIOSK_ADMIN_CLAIMS, REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';

// GET /api/notifications/preview_translated_email (docs/rules/notifications.md#e-mail-preview):
// a real booking made through the booking API, real staff sessions from real RS256 tokens.

const SYDNEY = 'Australia/Sydney';

/** The preview's sample unsubscribe link back to the marker the queued mail holds (filled per recipient when sent). */
const asQueued = (body: string) => body.replace(/https?:\/\/[^"\s\]]*\/unsubscribe\?token=preview-only/g, UNSUBSCRIBE_URL_PLACEHOLDER);

function url(query: Record<string, string>): string {
  return `${EMAIL_PREVIEW_PATH}?${new URLSearchParams(query).toString()}`;
}

describe.each(backends())('e-mail preview on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  let booked: Booked;
  let appointmentId: string;
  let queued: { subject: string; text_body: string; html_body: string };
  let exam: { exam: string; modality: string };

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    // The patient-session case signs in with the date of birth alone.
    await setOtpRequired(server.db, false);
    booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-18', slot: 4 });
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [
      booked.bookingKey,
    ]);
    appointmentId = row?.id ?? '';
    [exam = { exam: '', modality: '' }] = await server.db.query<{ exam: string; modality: string }>(
      `select e.name as exam, m.name as modality from appointment a join exam e on e.id = a.exam_id join modality m on m.id = e.modality_id
        where a.booking_key = $1`,
      [booked.bookingKey],
    );
    const [mail] = await server.db.query<{ subject: string; text_body: string; html_body: string }>(
      `select subject, text_body, html_body from outbox_mail order by id desc limit 1`,
    );
    if (mail === undefined) throw new Error('the booking queued no confirmation');
    queued = mail;
  });
  beforeEach(() => {
    server.clock.set(SEED_NOW);
  });

  const outboxCount = async (): Promise<number> =>
    (await server.db.query<{ count: number }>(`select count(*)::int as count from outbox_mail`))[0]?.count ?? -1;

  it('should render the very mail the booking queued, for the booking key and for the appointment id (en-AU, the default locale)', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    for (const referenceId of [booked.bookingKey, appointmentId, appointmentId.toUpperCase()]) {
      const response = await staff.request('GET', url({ template: 'booking_confirmation', lang: 'en-AU', referenceId }));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const preview = EmailPreviewSchema.parse(response.json());
      // The same mail; the page shows the booking code's image itself where the mail refers to its attachment.
      expect(preview.html).toContain('/unsubscribe?token=preview-only');
      expect({
        ...preview,
        text: asQueued(preview.text),
        html: asQueued(preview.html.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, 'cid:booking-code@patient-portal')),
      }).toEqual({
        subject: queued.subject,
        text: queued.text_body,
        html: queued.html_body,
      });
    }
  });

  it.each(SUPPORTED_LOCALES)('should render the booking in %s with its dates in that locale', async (lang) => {
    const staff = await signedIn(ADMIN_CLAIMS);
    const response = await staff.request('GET', url({ template: 'booking_confirmation', lang, referenceId: booked.bookingKey }));
    expect(response.statusCode, response.body).toBe(200);
    const preview = EmailPreviewSchema.parse(response.json());
    const day = new Intl.DateTimeFormat(lang, { timeZone: SYDNEY, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
      new Date(booked.startsAt),
    );
    expect(preview.subject).toContain(day);
    expect(preview.text).toContain(day);
    expect(preview.text).toContain(`${exam.exam} (${exam.modality})`);
    expect(preview.text).toContain(lang === 'mk' ? "Почитувани Ms Ada O'Neill-Lovelace," : "Dear Ms Ada O'Neill-Lovelace,");
    expect(preview.text).toContain(`/appointments/${booked.bookingKey}`);
    expect(preview.text).toMatch(/Chatswood/);
    expect(preview.html).toMatch(/^<!doctype html/i);
    expect(preview.html).toContain(day);
  });

  it('should write an audit row naming the staff member and the appointments, never the booking key', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const response = await staff.request('GET', url({ template: 'booking_confirmation', lang: 'mk', referenceId: booked.bookingKey }));
    expect(response.statusCode).toBe(200);
    const rows = await server.db.query<{ actor: string; subject_id: string; details: unknown }>(
      `select actor, subject_id, details from audit_log where action = 'email_previewed' order by id desc limit 1`,
    );
    expect(rows[0]).toEqual({
      actor: subjectRef(STAFF_CLAIMS.oid),
      subject_id: appointmentId,
      details: { template: 'booking_confirmation', lang: 'mk' },
    });
    expect(JSON.stringify(rows[0])).not.toContain(booked.bookingKey);
  });

  it('should queue nothing in the outbox', async () => {
    const before = await outboxCount();
    const staff = await signedIn(STAFF_CLAIMS);
    for (const lang of SUPPORTED_LOCALES) {
      expect((await staff.request('GET', url({ template: 'booking_confirmation', lang, referenceId: booked.bookingKey }))).statusCode).toBe(
        200,
      );
    }
    expect(await outboxCount()).toBe(before);
  });

  it('should answer 400 validation_failed naming the template for an unknown one', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    for (const template of ['otp', 'constructor', '__proto__', 'toString']) {
      const response = await staff.request('GET', url({ template, lang: 'en', referenceId: booked.bookingKey }));
      expect(response.statusCode, template).toBe(400);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json<{ code: string; message: string; details: Array<{ in: string }> }>();
      expect(body.code).toBe('validation_failed');
      expect(body.details[0]?.in).toBe('querystring/template');
      if (template === 'otp')
        expect(body.message).toBe(
          'Unknown e-mail template "otp"; known templates: booking_confirmation, booking_request_received, appointment_cancelled, reschedule_requested, appointment_reminder, waitlist_offer, waitlist_taken, screening_approved, screening_declined, screening_expired, otp_code, results_ready, result_share, referrer_report_ready, callback_requested.',
        );
    }
  });

  it('should answer 400 validation_failed for a language the portal has not, a missing value or an extra parameter', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const cases: Array<[Record<string, string>, string]> = [
      [{ template: 'booking_confirmation', lang: 'fr', referenceId: booked.bookingKey }, 'querystring/lang'],
      [{ template: 'booking_confirmation', lang: 'EN-au', referenceId: booked.bookingKey }, 'querystring/lang'],
      [{ template: 'booking_confirmation', referenceId: booked.bookingKey }, 'querystring/lang'],
      [{ template: 'booking_confirmation', lang: 'en' }, 'querystring/referenceId'],
      [{ template: 'booking_confirmation', lang: 'en', referenceId: '../etc/passwd' }, 'querystring/referenceId'],
      [{ template: 'booking_confirmation', lang: 'en', referenceId: booked.bookingKey, send: 'true' }, 'querystring/'],
    ];
    for (const [query, where] of cases) {
      const response = await staff.request('GET', url(query));
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      const body = response.json<{ code: string; details: Array<{ in: string; message: string }> }>();
      expect(body.code).toBe('validation_failed');
      expect(body.details.map((detail) => detail.in)).toContain(where);
    }
    const bad = await staff.request('GET', url({ template: 'booking_confirmation', lang: 'fr', referenceId: booked.bookingKey }));
    expect(bad.json<{ details: Array<{ message: string }> }>().details[0]?.message).toBe('lang must be one of en, en-AU, en-NZ, en-CA, mk');
  });

  it('should answer 404 with a clear message for a reference that names no booking', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    for (const referenceId of ['00000000-0000-4000-8000-000000000000', 'nOtAbOoKiNgKeYaTaLl00000']) {
      const response = await staff.request('GET', url({ template: 'booking_confirmation', lang: 'en', referenceId }));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'not_found', message: 'No appointment or booking has this reference id.' });
    }
  });

  it('should answer 401 without a staff session, also with a patient session of that very booking', async () => {
    const query = url({ template: 'booking_confirmation', lang: 'en', referenceId: booked.bookingKey });
    const anonymous = await server.app.inject({ method: 'GET', url: query, remoteAddress: '198.51.100.77' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    expect(anonymous.json<{ code: string }>().code).toBe('unauthorized');
    const patient = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const asPatient = await patient.get(query);
    expect(asPatient.statusCode).toBe(401);
    expect(asPatient.body).not.toContain(booked.bookingKey);
  });

  it("should serve the mail's HTML alone for the page's sandboxed frame, with its inline styles allowed and nothing else", async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const query = url({ template: 'booking_confirmation', lang: 'en-AU', referenceId: booked.bookingKey }).split('?')[1];
    const response = await staff.request('GET', `/api/notifications/preview_translated_email/html?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(asQueued(response.body.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, 'cid:booking-code@patient-portal'))).toBe(
      queued.html_body,
    );
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain('sandbox');
    expect(policy).toContain("style-src 'unsafe-inline'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).not.toContain('script-src');
    for (const claims of [REFERRER_CLAIMS, KIOSK_ADMIN_CLAIMS]) {
      const refused = await (await signedIn(claims)).request('GET', `/api/notifications/preview_translated_email/html?${query}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain('Dear');
    }
    const anonymous = await server.app.inject({ method: 'GET', url: `/api/notifications/preview_translated_email/html?${query}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('should answer 403 to a referrer and to an IT administrator, with no mail content', async () => {
    for (const claims of [REFERRER_CLAIMS, KIOSK_ADMIN_CLAIMS]) {
      const browser = await signedIn(claims);
      const response = await browser.request('GET', url({ template: 'booking_confirmation', lang: 'en', referenceId: booked.bookingKey }));
      expect(response.statusCode).toBe(403);
      expect(response.json<{ code: string }>().code).toBe('forbidden');
      expect(response.body).not.toContain('Dear');
    }
  });
});

describe('e-mail preview without staff sign-in configured', () => {
  const server = useTestApp();
  it('should answer 401 (the guard has no sessions to find)', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: url({ template: 'booking_confirmation', lang: 'en', referenceId: 'nOtAbOoKiNgKeYaTaLl00000' }),
    });
    expect(response.statusCode).toBe(401);
  });
});
