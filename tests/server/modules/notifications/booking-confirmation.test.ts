import { JSDOM } from 'jsdom';
import QRCode from 'qrcode';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  appointmentUrl,
  queueBookingConfirmation,
  renderBookingConfirmation,
  renderBookingConfirmationMail,
  type BookingConfirmation,
} from '../../../../src-server/modules/notifications/booking-confirmation';
import { BOOKING_CODE_CID, BOOKING_CODE_PNG_OPTIONS } from '../../../../src-server/modules/notifications/booking-code-image';
import { UNSUBSCRIBE_URL_PLACEHOLDER } from '../../../../src-server/modules/notifications/public';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createSmtpMailer } from '../../../../src-server/platform/mailer';
import { createOutboxRepository } from '../../../../src-server/platform/outbox/outbox-repository';
import { createOutboxWorker } from '../../../../src-server/platform/outbox/outbox-worker';
import { backends } from '../../helpers/database';
import { useTestDatabase } from '../../helpers/test-app';
import { collectingLogger, smtpConfigFor, startTestSmtpServer, type TestSmtpServer } from '../../helpers/test-smtp-server';

const NOW = '2026-03-10T01:00:00.000Z';
const OPTIONS = { publicUrl: 'https://portal.example.com', providerName: 'Demo Radiology', clock: createTestClock(NOW) };

/** Sydney leaves daylight saving at 03:00 on 5 April 2026: the two exams straddle the change. */
function confirmation(overrides: Partial<BookingConfirmation> = {}): BookingConfirmation {
  return {
    bookingKey: 'Kq3_x-9ZbT2mW8vY1nR4sA',
    patient: { title: 'Ms', firstName: 'Jane', lastName: 'Citizen', email: 'jane.citizen@example.com' },
    clinic: { name: 'Sydney CBD Imaging', address: '1 George St, Sydney NSW 2000', phone: '02 9000 0000', timeZone: 'Australia/Sydney' },
    appointments: [
      {
        examName: 'MRI Brain',
        modalityName: 'MRI',
        startsAt: '2026-04-04T23:30:00.000Z',
        endsAt: '2026-04-05T00:15:00.000Z',
        preparationNotes: 'Remove all metal; no jewellery.\nArrive 15 minutes early.',
      },
      { examName: 'CT Chest', modalityName: 'CT', startsAt: '2026-04-04T01:00:00.000Z', endsAt: '2026-04-04T01:20:00.000Z' },
    ],
    walkInExam: { name: 'X-ray Chest', prepTime: 10, minutesPrior: 20 },
    staffBooking: false,
    ...overrides,
  };
}

/** The .ics content lines, unfolded (RFC 5545 3.1). */
function icsLines(ics: string): string[] {
  return ics.replace(/\r\n[ \t]/g, '').split('\r\n');
}

function icsOf(mail: { attachments: Array<{ filename: string; content: string }> }): string {
  const attachment = mail.attachments.find((item) => item.filename === 'appointment.ics');
  if (attachment === undefined) throw new Error('no .ics attachment');
  return attachment.content;
}

describe('renderBookingConfirmation', () => {
  it('should give dates and times in the clinic time zone, on both sides of a daylight-saving change', async () => {
    const mail = await renderBookingConfirmation(confirmation(), OPTIONS);
    // The earlier appointment comes first and names the subject: 12:00 AEDT (UTC+11) on Saturday.
    expect(mail.subject).toBe('Demo Radiology: Your appointment is confirmed – Saturday 4 April 2026 at 12:00 pm AEDT, Sydney CBD Imaging');
    expect(mail.text).toContain('Saturday 4 April 2026, 12:00 pm AEDT to 12:20 pm AEDT');
    // After the change the zone is UTC+10: 23:30Z is 09:30 AEST.
    expect(mail.text).toContain('Sunday 5 April 2026, 9:30 am AEST to 10:15 am AEST');
    expect(mail.text.indexOf('CT Chest (CT)')).toBeLessThan(mail.text.indexOf('MRI Brain (MRI)'));
  });

  it('should carry the exams, clinic with address and phone, preparation notes, walk-in exam and the appointment link', async () => {
    const mail = await renderBookingConfirmation(confirmation(), OPTIONS);
    const link = 'https://portal.example.com/appointments/Kq3_x-9ZbT2mW8vY1nR4sA';
    for (const body of [mail.text, new JSDOM(mail.html).window.document.body.textContent ?? '']) {
      expect(body).toContain('Dear Ms Jane Citizen,');
      expect(body).toContain('Your appointment at Sydney CBD Imaging is confirmed.');
      expect(body).toContain('MRI Brain (MRI)');
      expect(body).toContain('CT Chest (CT)');
      expect(body).toContain('1 George St, Sydney NSW 2000');
      expect(body).toContain('Phone: 02 9000 0000');
      expect(body).toContain('Remove all metal; no jewellery.');
      expect(body).toContain('Arrive 15 minutes early.');
      expect(body).toContain('Walk-in exam: X-ray Chest');
      expect(body).toContain('Please arrive 20 minutes before your appointment time.');
      expect(body).toContain('Allow 10 minutes for preparation.');
      expect(body).toContain(link);
      expect(body).toContain('Demo Radiology');
    }
    const document = new JSDOM(mail.html).window.document;
    expect(document.documentElement.lang).toBe('en-AU');
    expect(document.title).toBe(mail.subject);
    // The button, and the address itself under it.
    expect([...document.querySelectorAll(`a[href="${link}"]`)].map((anchor) => anchor.textContent)).toEqual([
      'View your appointment',
      link,
    ]);
  });

  it('should leave out the walk-in lines and phone when there are none', async () => {
    const mail = await renderBookingConfirmation(
      confirmation({ walkInExam: undefined, clinic: { name: 'North Imaging', address: '2 High St', timeZone: 'Australia/Perth' } }),
      OPTIONS,
    );
    expect(mail.text).not.toContain('Walk-in');
    expect(mail.text).not.toContain('Phone:');
    // Perth has no daylight saving: UTC+8.
    expect(mail.text).toContain('Saturday 4 April 2026, 9:00 am AWST to 9:20 am AWST');
  });

  it('should speak to the patient after a staff booking, and say the booking team booked it', async () => {
    const mail = await renderBookingConfirmation(confirmation({ staffBooking: true }), OPTIONS);
    expect(mail.subject).toMatch(/^Demo Radiology: Your appointment is confirmed – /);
    for (const body of [mail.text, new JSDOM(mail.html).window.document.body.textContent ?? '']) {
      expect(body).toContain('Dear Ms Jane Citizen,');
      expect(body).toContain('Your appointment at Sydney CBD Imaging is confirmed. It was booked for you by our booking team.');
      expect(body).toContain('To view or manage your appointment, open:');
      expect(body).toContain('Please arrive 20 minutes before your appointment time.');
      expect(body).not.toMatch(/\bthe patient\b/i);
    }
    // A booking the patient made themselves does not say so.
    expect((await renderBookingConfirmation(confirmation(), OPTIONS)).text).not.toContain('booking team');
  });

  it('should escape every interpolated value in the HTML (a patient named <script>)', async () => {
    const hostile = '<script>alert("x")</script>';
    const mail = await renderBookingConfirmation(
      confirmation({
        bookingKey: 'key"><img src=x onerror=alert(1)>',
        patient: { title: '<b>Dr</b>', firstName: hostile, lastName: "O'Brien & <i>Sons</i>", email: 'x@example.com' },
        clinic: { name: 'Clinic <iframe>', address: '1 "Quoted" St & Co', phone: '<a href=x>call</a>', timeZone: 'Australia/Sydney' },
        appointments: [
          {
            examName: '<svg onload=alert(1)>',
            modalityName: 'MRI</li>',
            startsAt: '2026-04-04T23:30:00.000Z',
            endsAt: '2026-04-05T00:15:00.000Z',
            preparationNotes: '<style>body{display:none}</style>\nline two',
          },
        ],
        walkInExam: { name: '<marquee>walk</marquee>' },
      }),
      OPTIONS,
    );
    const document = new JSDOM(mail.html).window.document;
    expect(document.querySelectorAll('script, img, iframe, svg, style, marquee, b, i').length).toBe(0);
    // The booking's two links (button and address), the footer's contact page and its unsubscribe marker
    // (filled in per recipient when the mail goes out), nothing injected.
    expect([...document.querySelectorAll('a')].map((anchor) => anchor.getAttribute('href'))).toEqual([
      appointmentUrl('https://portal.example.com', 'key"><img src=x onerror=alert(1)>'),
      appointmentUrl('https://portal.example.com', 'key"><img src=x onerror=alert(1)>'),
      'https://portal.example.com/contact',
      UNSUBSCRIBE_URL_PLACEHOLDER,
    ]);
    const text = document.body.textContent ?? '';
    expect(text).toContain(`Dear <b>Dr</b> ${hostile} O'Brien & <i>Sons</i>,`);
    expect(text).toContain('<svg onload=alert(1)> (MRI</li>)');
    expect(text).toContain('<style>body{display:none}</style>');
    expect(text).toContain('Walk-in exam: <marquee>walk</marquee>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // The booking key is percent-encoded into the link, so it cannot break out of the attribute.
    expect(document.querySelector('a')?.getAttribute('href')).toBe(
      appointmentUrl('https://portal.example.com', 'key"><img src=x onerror=alert(1)>'),
    );
    expect(document.querySelector('a')?.getAttribute('href')).toMatch(/^https:\/\/portal\.example\.com\/appointments\/key%22%3E%3Cimg/);
  });

  it('should attach an RFC 5545 calendar with one event per exam in UTC, escaped and folded', async () => {
    const mail = await renderBookingConfirmation(
      confirmation({ clinic: { ...confirmation().clinic, name: 'Sydney, CBD; Imaging' } }),
      OPTIONS,
    );
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH' });
    const ics = icsOf(mail);
    for (const physical of ics.split('\r\n')) expect(Buffer.byteLength(physical, 'utf8')).toBeLessThanOrEqual(75);
    const lines = icsLines(ics);
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('DTSTART:'))).toEqual(['DTSTART:20260404T010000Z', 'DTSTART:20260404T233000Z']);
    expect(lines.filter((line) => line.startsWith('DTEND:'))).toEqual(['DTEND:20260404T012000Z', 'DTEND:20260405T001500Z']);
    expect(lines.filter((line) => line.startsWith('DTSTAMP:'))).toEqual(['DTSTAMP:20260310T010000Z', 'DTSTAMP:20260310T010000Z']);
    expect(lines).toContain('SUMMARY:MRI Brain (MRI)\\, Sydney\\, CBD\\; Imaging');
    expect(lines).toContain('LOCATION:Sydney\\, CBD\\; Imaging\\, 1 George St\\, Sydney NSW 2000');
    const description = lines.find((line) => line.startsWith('DESCRIPTION:Preparation'));
    expect(description).toContain('Remove all metal\\; no jewellery.\\nArrive 15 minutes early.');
    expect(description).toContain('https://portal.example.com/appointments/Kq3_x-9ZbT2mW8vY1nR4sA');
    const uids = lines.filter((line) => line.startsWith('UID:'));
    expect(new Set(uids).size).toBe(2);
    // The UID is stable but does not reveal the booking key, which opens the booking.
    for (const uid of uids) {
      expect(uid).toMatch(/^UID:[0-9a-f]{32}@portal\.example\.com$/);
      expect(uid).not.toContain('Kq3_x');
    }
    expect(icsOf(await renderBookingConfirmation(confirmation(), OPTIONS))).toBe(
      icsOf(await renderBookingConfirmation(confirmation(), OPTIONS)),
    );
  });

  it('should say a pending booking awaits the clinic, and mark its calendar events tentative', async () => {
    const mail = await renderBookingConfirmation(confirmation({ pending: true }), OPTIONS);
    expect(mail.subject).toBe(
      'Demo Radiology: Your appointment request is received – Saturday 4 April 2026 at 12:00 pm AEDT, Sydney CBD Imaging',
    );
    expect(mail.text).toContain('Your appointment at Sydney CBD Imaging is reserved and waiting for the clinic to confirm it.');
    expect(mail.text).not.toContain('confirmed');
    const lines = icsLines(icsOf(mail));
    expect(lines.filter((line) => line.startsWith('STATUS:'))).toEqual(['STATUS:TENTATIVE', 'STATUS:TENTATIVE']);
    const staff = await renderBookingConfirmation(confirmation({ pending: true, staffBooking: true }), OPTIONS);
    expect(staff.subject).toMatch(/^Demo Radiology: Your appointment request is received – /);
    expect(icsLines(icsOf(await renderBookingConfirmation(confirmation(), OPTIONS))).filter((line) => line.startsWith('STATUS:'))).toEqual([
      'STATUS:CONFIRMED',
      'STATUS:CONFIRMED',
    ]);
  });

  it('should keep the subject one header line, whatever the clinic is called', async () => {
    const clinic = { ...confirmation().clinic, name: 'Evil\r\nBcc: everyone@example.com\n' };
    const mail = await renderBookingConfirmation(confirmation({ clinic }), OPTIONS);
    expect(mail.subject).toBe(
      'Demo Radiology: Your appointment is confirmed – Saturday 4 April 2026 at 12:00 pm AEDT, Evil Bcc: everyone@example.com',
    );
    const long = await renderBookingConfirmation(confirmation({ clinic: { ...clinic, name: 'x'.repeat(2000) } }), OPTIONS);
    expect(long.subject).toHaveLength(250);
  });

  it('should refuse an appointment without a valid instant rather than mail a wrong time', async () => {
    const bad = confirmation({
      appointments: [{ examName: 'MRI', modalityName: 'MRI', startsAt: 'tomorrow', endsAt: '2026-04-05T00:15:00Z' }],
    });
    await expect(renderBookingConfirmation(bad, OPTIONS)).rejects.toThrow(/startsAt/);
    await expect(renderBookingConfirmation(confirmation({ appointments: [] }), OPTIONS)).rejects.toThrow(RangeError);
  });
});

describe.each(backends())('queueBookingConfirmation on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await smtp.stop();
  });

  beforeEach(async () => {
    await test.db.exec('delete from outbox_mail');
  });
  afterEach(() => {
    smtp.received.length = 0;
  });

  it('should queue the mail with the booking in one transaction', async () => {
    await test.db.transaction((tx) => queueBookingConfirmation(tx, confirmation(), OPTIONS));
    const [mail, ...others] = await createOutboxRepository(test.db).listRecent(10);
    expect(others).toHaveLength(0);
    expect(mail).toMatchObject({
      kind: 'booking_confirmation',
      recipient: 'jane.citizen@example.com',
      status: 'queued',
      attempts: 0,
      createdAt: NOW,
      nextAttemptAt: NOW,
      sentAt: null,
      lastError: null,
    });
    const rendered = await renderBookingConfirmationMail(confirmation(), OPTIONS);
    expect(mail?.subject).toBe(rendered.subject);
    expect(mail?.text).toBe(rendered.text);
    expect(mail?.html).toBe(rendered.html);
    expect(mail?.attachments).toEqual(rendered.attachments);
  });

  it('should leave no mail when the booking transaction rolls back', async () => {
    await expect(
      test.db.transaction(async (tx) => {
        await queueBookingConfirmation(tx, confirmation(), OPTIONS);
        throw new Error('the appointment insert failed');
      }),
    ).rejects.toThrow('the appointment insert failed');
    expect(await createOutboxRepository(test.db).listRecent(10)).toEqual([]);
  });

  it('should deliver over SMTP what the patient needs: subject, text, HTML and an .ics whose DTSTART matches', async () => {
    await test.db.transaction((tx) => queueBookingConfirmation(tx, confirmation(), OPTIONS));
    const mailer = createSmtpMailer(smtpConfigFor(smtp.port));
    const worker = createOutboxWorker({
      db: test.db,
      mailer,
      clock: createTestClock('2026-03-10T01:00:01Z'),
      logger: collectingLogger(),
      pollMs: 1000,
      maxAttempts: 3,
    });
    expect(await worker.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    await mailer.close();

    const [arrived] = await smtp.waitForMails(1);
    if (arrived === undefined) throw new Error('nothing arrived');
    expect(arrived.envelopeFrom).toBe('bookings@demo-radiology.example');
    expect(arrived.envelopeTo).toEqual(['jane.citizen@example.com']);
    const parsed = arrived.parsed;
    expect(parsed.subject).toBe(
      'Demo Radiology: Your appointment is confirmed – Saturday 4 April 2026 at 12:00 pm AEDT, Sydney CBD Imaging',
    );
    expect(parsed.text).toContain('https://portal.example.com/appointments/Kq3_x-9ZbT2mW8vY1nR4sA');
    expect(parsed.text).toContain('Remove all metal; no jewellery.');
    expect(parsed.html).toContain('<a href="https://portal.example.com/appointments/Kq3_x-9ZbT2mW8vY1nR4sA"');
    const calendar = parsed.attachments.find((attachment) => attachment.filename === 'appointment.ics');
    expect(calendar?.contentType).toBe('text/calendar');
    const lines = icsLines(calendar?.content.toString('utf8') ?? '');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.filter((line) => line.startsWith('DTSTART:'))).toEqual(['DTSTART:20260404T010000Z', 'DTSTART:20260404T233000Z']);
    expect(lines).toContain('METHOD:PUBLISH');

    // The booking code: the QR image of the short appointment link only, inline by Content-ID, and the key in text.
    const image = parsed.attachments.find((attachment) => attachment.contentType === 'image/png');
    expect(image?.cid).toBe(BOOKING_CODE_CID);
    expect(image?.contentDisposition).toBe('inline');
    expect(
      image?.content.equals(await QRCode.toBuffer('https://portal.example.com/a/Kq3_x-9ZbT2mW8vY1nR4sA', BOOKING_CODE_PNG_OPTIONS)),
    ).toBe(true);
    // What was sent refers to the image by Content-ID (the parser below swaps that for the image itself).
    const quotedPrintable = arrived.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(quotedPrintable).toMatch(new RegExp(`<img[^>]* src="cid:${BOOKING_CODE_CID}"`));
    expect(arrived.raw).toContain(`Content-ID: <${BOOKING_CODE_CID}>`);
    const html = new JSDOM(parsed.html || '').window.document;
    const img = html.querySelector('img[alt^="QR code"]');
    expect(img?.getAttribute('alt')).toBe('QR code of booking Kq3_ x-9Z bT2m W8vY 1nR4 sA');
    expect(img?.getAttribute('src')).toBe(`data:image/png;base64,${image?.content.toString('base64') ?? 'none'}`);
    expect(html.body.textContent).toContain('Scan this QR code at the kiosk to check in.');
    expect(parsed.text).toContain('Booking code: Kq3_ x-9Z bT2m W8vY 1nR4 sA');
    expect(parsed.text).toContain('Scan this QR code at the kiosk to check in.');

    const [stored] = await createOutboxRepository(test.db).listRecent(1);
    expect(stored).toMatchObject({ status: 'sent', attempts: 1, sentAt: '2026-03-10T01:00:01.000Z', lastError: null });
  });
});
