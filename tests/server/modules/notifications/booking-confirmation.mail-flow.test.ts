import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppointmentCreateResponseSchema, AvailabilityResponseSchema, CatalogueSchema, ClinicsResponseSchema } from '@contract/api/booking';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createSmtpMailer } from '../../../../src-server/platform/mailer';
import { createOutboxWorker } from '../../../../src-server/platform/outbox/outbox-worker';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { collectingLogger, smtpConfigFor, startTestSmtpServer, type TestSmtpServer } from '../../helpers/test-smtp-server';
import { book } from '../booking/booking-test-kit';

/**
 * The whole path of the confirmation: a patient books two MRI exams (and a CT as the walk-in
 * exam) through the booking API,
 * the outbox worker sends the mail to a real SMTP server, and what arrives matches the booking.
 */

function icsLines(ics: string): string[] {
  return ics.replace(/\r\n[ \t]/g, '').split('\r\n');
}

describe.each(backends())('booking confirmation mail, end to end, on %s', (backend) => {
  const server = useTestApp({ backend });
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await smtp.stop();
  });

  async function getJson(url: string): Promise<unknown> {
    const response = await server.app.inject({ method: 'GET', url });
    if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
    return response.json();
  }

  it('should mail the patient who booked two MRI exams and a walk-in CT their times, clinic, link and calendar file', async () => {
    const catalogue = CatalogueSchema.parse(await getJson('/api/booking/catalogue'));
    const bookable = catalogue.exams.filter((exam) => !exam.enquiryOnly);
    // Exams of different modalities cannot share one time (the other becomes the walk-in exam),
    // so: the first two MRI exams that a clinic offers together with a free time for both.
    const mris = bookable.filter((exam) => exam.modalityName === 'MRI');
    let choice: { exams: string[]; clinicSlug: string; startsAt: string; clinicName: string } | null = null;
    for (const [index, first] of mris.entries()) {
      for (const second of mris.slice(index + 1)) {
        const exams = `${first.slug},${second.slug}`;
        const clinics = ClinicsResponseSchema.parse(await getJson(`/api/booking/clinics?exams=${exams}`));
        const clinic = clinics.clinics.find((candidate) => candidate.nextAvailable !== null);
        if (clinic === undefined) continue;
        const slots = AvailabilityResponseSchema.parse(
          await getJson(`/api/booking/availability?exams=${exams}&clinics=${clinic.clinic.slug}&from=2026-03-16&days=7`),
        );
        const slot = slots.clinics[0]?.days.flatMap((day) => day.slots)[0];
        if (slot === undefined) continue;
        choice = {
          exams: [first.slug, second.slug],
          clinicSlug: clinic.clinic.slug,
          startsAt: slot.startsAt,
          clinicName: clinic.clinic.name,
        };
        break;
      }
      if (choice !== null) break;
    }
    if (choice === null) throw new Error('the demo provider has no clinic offering two MRI exams together');

    const response = await book(server.app, {
      exams: choice.exams,
      clinicSlug: choice.clinicSlug,
      startsAt: choice.startsAt,
      patient: {
        title: 'Mr',
        firstName: 'Sam',
        lastName: 'Mail-Test',
        dateOfBirth: '1970-01-31',
        email: 'sam.mailtest@example.com',
        contactNumber: '0412345678',
        postalCode: '2000',
        medicareNumber: '2123456701',
      },
      // One of the provider's walk-in exams (the server records only those, with their own minutes).
      walkInExam: { name: 'CT brain without contrast (walk-in)', prepTime: 0, minutesPrior: 20 },
    });
    expect(response.statusCode, response.body).toBe(201);
    const booking = AppointmentCreateResponseSchema.parse(response.json());

    const mailer = createSmtpMailer(smtpConfigFor(smtp.port));
    const worker = createOutboxWorker({
      db: server.db,
      mailer,
      clock: createTestClock(SEED_NOW),
      logger: collectingLogger(),
      pollMs: 1000,
      maxAttempts: 3,
    });
    try {
      expect((await worker.runOnce()).sent).toBe(1);
    } finally {
      await mailer.close();
    }
    const [arrived] = await smtp.waitForMails(1);
    if (arrived === undefined) throw new Error('no mail arrived');
    expect(arrived.envelopeTo).toEqual(['sam.mailtest@example.com']);
    expect(arrived.parsed.subject).toMatch(new RegExp(`^.+: Your appointment is confirmed – .+, ${choice.clinicName}$`));
    const text = arrived.parsed.text ?? '';
    expect(text).toContain('Dear Mr Sam Mail-Test,');
    expect(text).toContain(`/appointments/${booking.bookingKey}`);
    expect(text).toContain('Walk-in exam: CT brain without contrast (walk-in)');
    expect(text).toContain('Please arrive 20 minutes before your appointment time.');
    for (const appointment of booking.appointments) expect(text).toContain(`${appointment.examName} (${appointment.modalityName})`);

    const calendar = arrived.parsed.attachments.find((attachment) => attachment.filename === 'appointment.ics');
    const lines = icsLines(calendar?.content.toString('utf8') ?? '');
    const starts = lines.filter((line) => line.startsWith('DTSTART:')).map((line) => line.slice('DTSTART:'.length));
    const expected = booking.appointments
      .map((appointment) => appointment.date)
      .sort()
      .map((date) =>
        new Date(date)
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d{3}/, ''),
      );
    expect(starts).toEqual(expected);
    expect(starts[0]).toBe(
      new Date(choice.startsAt)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, ''),
    );
  });
});
