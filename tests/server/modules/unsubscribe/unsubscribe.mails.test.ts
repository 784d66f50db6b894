import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNSUBSCRIBE_API_PATH } from '@contract/api/unsubscribe';
import type { Database } from '../../../../src-server/db/connection';
import { renderBookingConfirmationMail } from '../../../../src-server/modules/notifications/booking-confirmation';
import {
  bookingRequestMail,
  cancellationMail,
  mailContext,
  otpMail,
  referrerReportReadyMail,
  reminderMail,
  rescheduleRequestMail,
  resultShareMail,
  resultsReadyMail,
  UNSUBSCRIBE_URL_PLACEHOLDER,
  type Mail,
  type MailContext,
} from '../../../../src-server/modules/notifications/public';
import { createOutboxRepository } from '../../../../src-server/platform/outbox/outbox-repository';
import { backends, SEED_NOW } from '../../helpers/database';
import { testConfig } from '../../helpers/build-server';
import { useTestApp } from '../../helpers/test-app';
import { startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../helpers/test-smtp-server';
import { bookThrough, patientEmailOf, signIn } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { headerOf, oneClickOf, recipientRows, sendQueued, SIGNING_KEY } from './unsubscribe-kit';

// Every mail the outbox sends to a patient or contact carries its recipient's own unsubscribe
// link in the footer and the RFC 8058 headers; after unsubscribing, notifications are skipped
// while the one-time code and the booking confirmation still go (docs/rules/notifications.md#unsubscribe).

const APPOINTMENT = {
  bookingKey: 'abcdefghijklmnopqrstuv',
  patient: { firstName: 'Lena', lastName: 'Mail' },
  clinic: { name: 'Chatswood', phone: '02 9000 0000', timeZone: 'Australia/Sydney' },
  appointments: [
    { examName: 'X-ray chest', modalityName: 'X-ray', startsAt: '2026-03-18T00:00:00.000Z', endsAt: '2026-03-18T00:15:00.000Z' },
  ],
};

/** One mail of every kind the outbox sends to a patient, contact or referrer, rendered by the real templates. */
async function everyKind(db: Database, publicUrl: string, locale: 'en' | 'mk'): Promise<Array<[string, Mail]>> {
  const context: MailContext = await mailContext(db, publicUrl, locale);
  const link = `${publicUrl}/somewhere`;
  const confirmation = await renderBookingConfirmationMail(
    {
      bookingKey: APPOINTMENT.bookingKey,
      patient: { ...APPOINTMENT.patient, email: 'x@example.com' },
      clinic: { name: 'Chatswood', address: '1 Test St', timeZone: 'Australia/Sydney' },
      appointments: APPOINTMENT.appointments,
      staffBooking: false,
    },
    { publicUrl, providerName: context.brand.name, clock: { now: () => new Date(SEED_NOW) }, locale, brand: context.brand },
  );
  return [
    ['booking_confirmation', confirmation],
    [
      'booking_request_received',
      await bookingRequestMail({ bookingKey: 'k', patient: APPOINTMENT.patient, clinic: null, exams: ['CT'] }, context),
    ],
    ['appointment_cancelled', await cancellationMail(APPOINTMENT, context)],
    ['reschedule_requested', await rescheduleRequestMail(APPOINTMENT, context)],
    ['appointment_reminder', await reminderMail(APPOINTMENT, context)],
    ['otp_code', await otpMail({ code: '123456', validMinutes: 10 }, { ...context, brand: { ...context.brand, publicUrl: '' } })],
    [
      'results_ready',
      await resultsReadyMail({ firstName: 'Lena', examName: 'CT', startsAt: SEED_NOW, timeZone: 'Australia/Sydney', link }, context),
    ],
    [
      'result_share',
      await resultShareMail({ sharedBy: 'Lena M', contactName: null, history: false, note: null, link, validUntil: '1 April' }, context),
    ],
    [
      'referrer_report_ready',
      await referrerReportReadyMail(
        { referrerName: 'Dr Ref', patient: 'Lena M', examName: 'CT', startsAt: SEED_NOW, timeZone: 'UTC', accessionNumber: 'A1', link },
        context,
      ),
    ],
  ];
}

const KINDS_STILL_SENT = ['booking_confirmation', 'otp_code'];

describe.each(backends())('unsubscribe links in every mail on %s', (backend) => {
  const server = useTestApp({ backend, env: { SIGNED_LINK_KEYS: SIGNING_KEY } });
  let smtp: TestSmtpServer;
  let publicUrl = '';

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    smtp = await startTestSmtpServer();
    publicUrl = testConfig().publicUrl;
  });
  afterAll(async () => {
    await smtp.stop();
  });
  beforeEach(() => {
    server.clock.set(SEED_NOW);
  });

  async function queueEveryKind(recipient: string, locale: 'en' | 'mk'): Promise<string[]> {
    const outbox = createOutboxRepository(server.db);
    const kinds: string[] = [];
    for (const [kind, mail] of await everyKind(server.db, publicUrl, locale)) {
      expect(mail.html, kind).toContain(UNSUBSCRIBE_URL_PLACEHOLDER);
      await outbox.enqueue({ kind, recipient, ...mail }, server.clock.now());
      kinds.push(kind);
    }
    return kinds;
  }

  const arrivedFor = async (recipient: string, count: number): Promise<ReceivedMail[]> =>
    (await smtp.waitForMails(count)).filter((mail) => mail.envelopeTo.some((to) => to.toLowerCase() === recipient.toLowerCase()));

  it('should give every kind, in en and mk, the footer link and both RFC 8058 headers, each naming the recipient alone', async () => {
    const recipient = 'every.kind@example.com';
    const before = smtp.received.length;
    const kinds = [...(await queueEveryKind(recipient, 'en')), ...(await queueEveryKind(recipient, 'mk'))];
    await sendQueued(server.app, server.db, smtp, server.clock.now());
    const arrived = await arrivedFor(recipient, before + kinds.length);
    expect(arrived).toHaveLength(kinds.length);
    for (const mail of arrived) {
      const subject = mail.parsed.subject ?? '';
      expect(headerOf(mail, 'list-unsubscribe-post'), subject).toBe('List-Unsubscribe=One-Click');
      const { url, token } = oneClickOf(mail);
      expect(url.pathname, subject).toBe(UNSUBSCRIBE_API_PATH);
      expect(token, subject).toMatch(/^v1\.k1\./);
      // The footer opens the page with a link of the same recipient; the marker is gone from both parts.
      const html = String(mail.parsed.html);
      const text = mail.parsed.text ?? '';
      expect(html).not.toContain(UNSUBSCRIBE_URL_PLACEHOLDER);
      expect(text).not.toContain(UNSUBSCRIBE_URL_PLACEHOLDER);
      expect(html, subject).toMatch(/href="[^"]*\/unsubscribe\?token=v1\.k1\.[^"]+"/);
      expect(text, subject).toMatch(/\/unsubscribe\?token=v1\.k1\./);
      expect(html).toMatch(/Unsubscribe|Откажи претплата/);
      // The link works: it names this recipient.
      const described = await server.app.inject({ method: 'GET', url: `${UNSUBSCRIBE_API_PATH}?token=${encodeURIComponent(token)}` });
      expect(described.json()).toEqual({ address: 'e***@example.com', unsubscribed: false });
    }
    expect(await recipientRows(server.db)).toContainEqual({ address: recipient, unsubscribed: false });
  });

  it('should skip notifications to an unsubscribed address, mails queued before the unsubscribe included, and still send the code and the confirmation', async () => {
    const recipient = 'Stop.Me@Example.com';
    let before = smtp.received.length;
    await queueEveryKind(recipient, 'en');
    await sendQueued(server.app, server.db, smtp, server.clock.now());
    const [first] = await arrivedFor(recipient, before + 8);
    if (first === undefined) throw new Error('no mail arrived');
    const oneClick = await server.app.inject({
      method: 'POST',
      url: `${UNSUBSCRIBE_API_PATH}?token=${encodeURIComponent(oneClickOf(first).token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);

    // Queued in another spelling of the address: the record is by the normalised address.
    before = smtp.received.length;
    const kinds = await queueEveryKind('stop.me@EXAMPLE.com', 'en');
    await sendQueued(server.app, server.db, smtp, server.clock.now());
    await smtp.waitForMails(before + KINDS_STILL_SENT.length);
    const statuses = await server.db.query<{ kind: string; status: string; last_error: string | null }>(
      `select kind, status, last_error from outbox_mail where lower(recipient) = 'stop.me@example.com' order by id desc limit $1`,
      [kinds.length],
    );
    for (const row of statuses) {
      if (KINDS_STILL_SENT.includes(row.kind)) expect(row.status, row.kind).toBe('sent');
      else expect(row, row.kind).toMatchObject({ status: 'skipped', last_error: 'unsubscribed' });
    }
    expect(new Set(statuses.filter((row) => row.status === 'skipped').map((row) => row.kind))).toEqual(
      new Set([
        'booking_request_received',
        'appointment_cancelled',
        'reschedule_requested',
        'appointment_reminder',
        'results_ready',
        'result_share',
        'referrer_report_ready',
      ]),
    );
    const sentNow = smtp.received.slice(before).map((mail) => mail.parsed.subject ?? '');
    expect(sentNow).toHaveLength(KINDS_STILL_SENT.length);
  });

  it('should record the appointment page unsubscribe in the same place: no cancellation mail, and the mail link shows it', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-18', slot: 4 });
    const email = await patientEmailOf(server.db, booked.bookingKey);
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    const unsubscribed = await signed.post(`/api/appointments/${booked.bookingKey}/unsubscribe`, {});
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(200);
    expect(unsubscribed.json()).toMatchObject({ emailUnsubscribed: true });
    expect(await recipientRows(server.db)).toContainEqual({ address: email.trim().toLowerCase(), unsubscribed: true });

    // The confirmation queued at booking still goes, with a link that says the address is unsubscribed.
    const before = smtp.received.length;
    await sendQueued(server.app, server.db, smtp, server.clock.now());
    const [confirmation] = (await smtp.waitForMails(before + 1)).slice(before);
    if (confirmation === undefined) throw new Error('the confirmation did not arrive');
    const { token } = oneClickOf(confirmation);
    const described = await server.app.inject({ method: 'GET', url: `${UNSUBSCRIBE_API_PATH}?token=${encodeURIComponent(token)}` });
    expect(described.json()).toMatchObject({ unsubscribed: true });

    const cancelled = await signed.post(`/api/appointments/${booked.bookingKey}/cancel`, { reason: { label: 'Other' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const kinds = await server.db.query<{ kind: string }>(`select kind from outbox_mail where recipient = $1 order by id`, [email]);
    expect(kinds.map((mail) => mail.kind)).toEqual(['booking_confirmation']);
  });
});
