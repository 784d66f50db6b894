import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EMAIL_PREVIEW_OPTIONS_PATH,
  EMAIL_TEST_SEND_PATH,
  EMAIL_TESTS_PER_HOUR,
  EmailPreviewOptionsSchema,
} from '@contract/api/notifications';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createSmtpMailer } from '../../../../src-server/platform/mailer';
import { createOutboxWorker } from '../../../../src-server/platform/outbox/outbox-worker';
import { backends, SEED_NOW } from '../../helpers/database';
import { collectingLogger, smtpConfigFor, startTestSmtpServer, type TestSmtpServer } from '../../helpers/test-smtp-server';
import { bookThrough, patientEmailOf, signIn } from '../appointments/self-service-kit';
import { patient, requestBooking } from '../booking/booking-test-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { REFERRER_CLAIMS, STAFF_CLAIMS, staffBrowser, useStaffTestApp } from '../staff-access/identity-kit';

// The new mails are queued in the transaction of the change they report, and "send a test to me"
// reaches a real SMTP server, staff only and limited (docs/rules/notifications.md).

describe.each(backends())('mail flows on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await smtp.stop();
  });
  beforeEach(() => {
    server.clock.set(SEED_NOW);
  });
  let name = '';
  beforeAll(async () => {
    name = (await server.db.query<{ name: string }>(`select radiology_config->>'name' as name from provider`))[0]?.name ?? '';
    expect(name).not.toBe('');
  });

  const mailsOf = (recipient: string) =>
    server.db.query<{ kind: string; subject: string; text_body: string; html_body: string | null }>(
      `select kind, subject, text_body, html_body from outbox_mail where recipient = $1 order by id`,
      [recipient],
    );

  it('should acknowledge a booking request in a mail queued with it', async () => {
    const email = 'requester@example.com';
    const response = await requestBooking(server.app, {
      exams: ['ct-coronary-angiogram'],
      clinicSlug: 'newcastle',
      patient: patient({ email }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const mails = await mailsOf(email);
    expect(mails.map((mail) => mail.kind)).toEqual(['booking_request_received']);
    expect(mails[0]?.subject).toBe(`${name}: We have received your booking request`);
    expect(mails[0]?.text_body).toContain('/booking-requests/');
    expect(mails[0]?.html_body).toContain('<html');
  });

  it('should mail the patient when they ask to reschedule and when they cancel, once each', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-18', slot: 6 });
    const email = await patientEmailOf(server.db, booked.bookingKey);
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const asked = await signed.post(`/api/appointments/${booked.bookingKey}/request-reschedule`, { note: 'Mornings please' });
    expect(asked.statusCode, asked.body).toBe(200);
    const cancelled = await signed.post(`/api/appointments/${booked.bookingKey}/cancel`, { reason: { label: 'Other' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const mails = await mailsOf(email);
    expect(mails.map((mail) => mail.kind)).toEqual(['booking_confirmation', 'reschedule_requested', 'appointment_cancelled']);
    expect(mails[1]?.subject).toBe(`${name}: We have received your request to reschedule`);
    expect(mails[2]?.subject.startsWith(`${name}: Your appointment on `)).toBe(true);
    expect(mails[2]?.subject).toMatch(/ is cancelled$/);
    expect(mails[2]?.text_body).toContain('X-ray');
  });

  it('should list every template and recent records for staff, and send a test to the staff member alone', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const options = await staff.request('GET', EMAIL_PREVIEW_OPTIONS_PATH);
    expect(options.statusCode, options.body).toBe(200);
    const body = EmailPreviewOptionsSchema.parse(options.json());
    expect(body.templates.map((template) => template.name)).toContain('appointment_cancelled');
    expect(body.languages).toContain('mk');
    const booking = body.references.booking[0];
    if (booking === undefined) throw new Error('no booking listed');
    expect(booking.label).toMatch(/ · /);

    const address = String(STAFF_CLAIMS.preferred_username);
    const sent = await staff.request('POST', EMAIL_TEST_SEND_PATH, {
      template: 'appointment_cancelled',
      lang: 'mk',
      referenceId: booking.id,
    });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toMatchObject({ recipient: address });
    const mailer = createSmtpMailer(smtpConfigFor(smtp.port));
    const worker = createOutboxWorker({
      db: server.db,
      mailer,
      clock: createTestClock(server.clock.now().toISOString()),
      logger: collectingLogger(),
      pollMs: 1000,
      maxAttempts: 3,
    });
    await worker.runOnce();
    await mailer.close();
    const arrived = (await smtp.waitForMails(1)).find((mail) => mail.envelopeTo.includes(address));
    expect(arrived?.parsed.subject?.startsWith(`${name}: Вашиот термин на `)).toBe(true);
    expect(arrived?.parsed.subject).toMatch(/ е откажан$/);
    expect(arrived?.parsed.html).toContain('lang="mk"');
    const audit = await server.db.query<{ details: unknown }>(`select details from audit_log where action = 'email_test_sent'`);
    expect(audit.map((entry) => entry.details)).toEqual([{ template: 'appointment_cancelled', lang: 'mk' }]);

    // A few an hour: the rest are refused with 429 and queue nothing.
    for (let index = 1; index < EMAIL_TESTS_PER_HOUR; index += 1) {
      const again = await staff.request('POST', EMAIL_TEST_SEND_PATH, { template: 'otp_code', lang: 'en', referenceId: booking.id });
      expect(again.statusCode, again.body).toBe(202);
    }
    const before = (await mailsOf(address)).length;
    const refused = await staff.request('POST', EMAIL_TEST_SEND_PATH, { template: 'otp_code', lang: 'en', referenceId: booking.id });
    expect(refused.statusCode).toBe(429);
    expect((await mailsOf(address)).length).toBe(before);
    // An hour on, one may be sent again.
    server.clock.set(new Date(server.clock.now().getTime() + 3_600_001).toISOString());
    const later = await (
      await signedIn(STAFF_CLAIMS)
    ).request('POST', EMAIL_TEST_SEND_PATH, { template: 'otp_code', lang: 'en', referenceId: booking.id });
    expect(later.statusCode, later.body).toBe(202);
  });

  it('should refuse a referrer, a bad template and an unknown record, queueing nothing', async () => {
    const count = async () => (await server.db.query<{ n: number }>(`select count(*)::int as n from outbox_mail`))[0]?.n;
    const before = await count();
    const referrer = await signedIn(REFERRER_CLAIMS);
    expect((await referrer.request('GET', EMAIL_PREVIEW_OPTIONS_PATH)).statusCode).toBe(403);
    const body = { template: 'otp_code', lang: 'en', referenceId: '00000000-0000-4000-8000-000000000000' };
    expect((await referrer.request('POST', EMAIL_TEST_SEND_PATH, body)).statusCode).toBe(403);
    expect((await staffBrowser(server.app).request('POST', EMAIL_TEST_SEND_PATH, body)).statusCode).toBe(401);
    const staff = await signedIn({ ...STAFF_CLAIMS, oid: 'another-staff-member', preferred_username: 'kim@demo-radiology.example' });
    expect((await staff.request('POST', EMAIL_TEST_SEND_PATH, body)).statusCode).toBe(404);
    expect((await staff.request('POST', EMAIL_TEST_SEND_PATH, { ...body, template: 'nope' })).statusCode).toBe(400);
    expect((await staff.request('POST', EMAIL_TEST_SEND_PATH, { ...body, lang: 'fr' })).statusCode).toBe(400);
    expect(await count()).toBe(before);
  });
});
