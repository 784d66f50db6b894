import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { renderBookingConfirmation, type BookingConfirmation } from '../../../../src-server/modules/notifications/booking-confirmation';
import {
  bookingRequestMail,
  cancellationMail,
  otpMail,
  referrerReportReadyMail,
  reminderMail,
  rescheduleRequestMail,
  resultShareMail,
  resultsReadyMail,
  waitlistOfferMail,
  waitlistTakenMail,
  screeningReviewMail,
  type Mail,
  type MailContext,
} from '../../../../src-server/modules/notifications/mail-kinds';
import { callbackRequestedMail } from '../../../../src-server/modules/notifications/templates/callback-request-mail';
import { defaultBrand } from '../../../../src-server/modules/notifications/templates/brand';
import { createTestClock } from '../../../../src-server/platform/clock';

// Every mail kind rendered through react-email in each language: HTML and text, the provider's
// name first in the subject, the words of the language (docs/rules/notifications.md#mail-kinds).

const PROVIDER = 'Example Radiology';
const brand = { ...defaultBrand('https://portal.example.com', PROVIDER), headerBackground: '#7a1f5c' };
const context = (locale: 'en-AU' | 'mk'): MailContext => ({ brand, locale });
const patient = { title: 'Ms', firstName: 'Jane', lastName: 'Citizen' };
const appointment = {
  bookingKey: 'Kq3_x-9ZbT2mW8vY1nR4sA',
  patient,
  clinic: { name: 'Sydney CBD Imaging', phone: '02 9000 0000', timeZone: 'Australia/Sydney' },
  appointments: [{ examName: 'MRI Brain', modalityName: 'MRI', startsAt: '2026-04-04T01:00:00.000Z', endsAt: '2026-04-04T01:20:00.000Z' }],
};
const offer = {
  startsAt: '2026-04-01T23:00:00.000Z',
  clinicName: 'Sydney CBD Imaging',
  expiresAt: '2026-03-30T00:30:00.000Z',
  offeredAt: '2026-03-30T00:00:00.000Z',
  link: 'https://portal.example.com/waitlist-offer?token=t',
};
const report = { startsAt: '2026-04-04T01:00:00.000Z', timeZone: 'Australia/Sydney', examName: 'MRI Brain' };
const confirmation: BookingConfirmation = {
  bookingKey: appointment.bookingKey,
  patient: { ...patient, email: 'jane@example.com' },
  clinic: { name: 'Sydney CBD Imaging', address: '1 George St, Sydney NSW 2000', phone: '02 9000 0000', timeZone: 'Australia/Sydney' },
  appointments: [{ ...appointment.appointments[0]!, preparationNotes: 'Remove all metal.' }],
  staffBooking: true,
};

/** Each kind, with a phrase of its body in English and in Macedonian. */
const KINDS: Array<{ name: string; render: (locale: 'en-AU' | 'mk') => Promise<Mail>; en: string; mk: string }> = [
  {
    name: 'booking_confirmation',
    render: (locale) =>
      renderBookingConfirmation(confirmation, {
        publicUrl: brand.publicUrl,
        providerName: PROVIDER,
        clock: createTestClock('2026-03-10T00:00:00Z'),
        locale,
        brand,
      }),
    en: 'It was booked for you by our booking team.',
    mk: 'Терминот за Вас го закажа нашиот тим за закажување.',
  },
  {
    name: 'booking_request_received',
    render: (locale) =>
      bookingRequestMail(
        { bookingKey: appointment.bookingKey, patient, clinic: appointment.clinic, exams: ['MRI Brain'] },
        context(locale),
      ),
    en: 'Our booking team will contact you to arrange a time.',
    mk: 'Нашиот тим за закажување ќе Ве контактира',
  },
  {
    name: 'appointment_cancelled',
    render: (locale) => cancellationMail(appointment, context(locale)),
    en: 'is cancelled, as you asked',
    mk: 'е откажан, како што побаравте',
  },
  {
    name: 'reschedule_requested',
    render: (locale) => rescheduleRequestMail(appointment, context(locale)),
    en: 'Your current time stays reserved for you',
    mk: 'Вашето сегашно време останува резервирано',
  },
  {
    name: 'appointment_reminder',
    render: (locale) => reminderMail(appointment, context(locale)),
    en: 'This is a reminder of your appointment at',
    mk: 'Ве потсетуваме на Вашиот термин во',
  },
  {
    name: 'waitlist_offer',
    render: (locale) => waitlistOfferMail(appointment, offer, context(locale)),
    en: 'An earlier time has become free at Sydney CBD Imaging',
    mk: 'Се ослободи порано време во Sydney CBD Imaging',
  },
  {
    name: 'waitlist_taken',
    render: (locale) => waitlistTakenMail(appointment, offer, context(locale)),
    en: 'has been taken by another patient',
    mk: 'го зеде друг пациент',
  },
  {
    name: 'screening_approved',
    render: (locale) => screeningReviewMail(appointment, 'approved', null, context(locale)),
    en: 'A radiographer has checked your answers: your appointment at Sydney CBD Imaging',
    mk: 'Радиолошки технолог ги провери Вашите одговори: Вашиот термин во Sydney CBD Imaging',
  },
  {
    name: 'screening_declined',
    render: (locale) => screeningReviewMail(appointment, 'declined', 'Bring the implant letter.', context(locale)),
    en: 'Please call the clinic on 02 9000 0000',
    mk: 'Ве молиме јавете се во клиниката на 02 9000 0000',
  },
  {
    name: 'screening_expired',
    render: (locale) => screeningReviewMail(appointment, 'expired', null, context(locale)),
    en: 'We could not check your answers in time',
    mk: 'Не успеавме навреме да ги провериме Вашите одговори',
  },
  {
    name: 'otp_code',
    render: (locale) => otpMail({ code: '482913', validMinutes: 10 }, context(locale)),
    en: 'verification code is 482913',
    mk: 'верификациски код за Example Radiology е 482913',
  },
  {
    name: 'results_ready',
    render: (locale) =>
      resultsReadyMail({ ...report, firstName: 'Jane', link: 'https://portal.example.com/appointments/k/result' }, context(locale)),
    en: 'is ready to view',
    mk: 'е достапен',
  },
  {
    name: 'result_share',
    render: (locale) =>
      resultShareMail(
        {
          sharedBy: 'Jane C.',
          contactName: 'Alex',
          history: false,
          note: 'See <b>this</b>',
          link: 'https://portal.example.com/results/shared#t',
          validUntil: '4 May 2026',
        },
        context(locale),
      ),
    en: 'has shared a radiology result with you',
    mk: 'сподели радиолошки резултат со Вас',
  },
  {
    name: 'referrer_report_ready',
    render: (locale) =>
      referrerReportReadyMail(
        {
          ...report,
          referrerName: 'Dr Ada Lovelace',
          patient: 'Jane C.',
          accessionNumber: 'ACC-1',
          link: 'https://portal.example.com/referrer/quick-report?imsec=x',
        },
        context(locale),
      ),
    en: 'The link is for you alone and works for 30 days.',
    mk: 'Врската е само за Вас и важи 30 дена.',
  },
  {
    name: 'callback_requested',
    render: (locale) =>
      callbackRequestedMail(
        {
          firstName: 'Jane',
          lastName: 'Citizen',
          phone: '+61491570006',
          windows: ['weekdayMorning', 'saturdayMorning'],
          reason: 'MRI Brain?',
          examName: 'MRI Brain',
          receivedAt: new Date('2026-04-04T01:00:00.000Z'),
          timeZone: 'Australia/Sydney',
        },
        context(locale),
      ),
    en: 'A patient has asked the call centre to phone them back.',
    mk: 'Пациент побара од контакт-центарот да му се јави.',
  },
];

/** English words the layout and the mails use, none of which may remain in a Macedonian mail. */
const ENGLISH =
  /\b(Dear|Hello|Your|your|Please|appointment|This e-mail|Questions|Contact us|Phone|View|Open|ready|confirmed|cancelled|booking)\b/;

describe('every mail kind', () => {
  it.each(KINDS)('$name: HTML and text in English, the subject starting with the provider', async (kind) => {
    const mail = await kind.render('en-AU');
    expect(mail.subject.startsWith(`${PROVIDER}: `)).toBe(true);
    expect(mail.text).toContain(kind.en);
    const document = new JSDOM(mail.html).window.document;
    expect(document.documentElement.lang).toBe('en-AU');
    expect(document.title).toBe(mail.subject);
    expect(document.body.textContent).toContain(kind.en);
    // The shared layout: the provider's name in the header, its colour on the card, the footer.
    expect(document.body.textContent).toContain(`This e-mail was sent by ${PROVIDER}.`);
    expect(mail.html).toContain('#7a1f5c');
    expect(document.querySelectorAll('script').length).toBe(0);
  });

  it.each(KINDS)('$name: HTML and text in Macedonian, no English left but names', async (kind) => {
    const mail = await kind.render('mk');
    expect(mail.subject.startsWith(`${PROVIDER}: `)).toBe(true);
    expect(mail.subject).toMatch(/[А-Яа-яЀ-ӿ]/);
    expect(mail.text).toContain(kind.mk);
    const document = new JSDOM(mail.html).window.document;
    expect(document.documentElement.lang).toBe('mk');
    expect(document.body.textContent).toContain(kind.mk);
    expect(document.body.textContent).toContain(`Оваа е-порака ја испрати ${PROVIDER}.`);
    // Names, exams and addresses stay as the records spell them; the mail's own words do not.
    const own = `${mail.subject}\n${mail.text}`
      .replaceAll(PROVIDER, '')
      .replace(/https?:\/\/\S+/g, '')
      .replace(/MRI Brain|Sydney CBD Imaging|George St|Sydney NSW|Jane|Citizen|Ada Lovelace|Alex|appointment\.ics/g, '');
    expect(own).not.toMatch(ENGLISH);
  });

  it('keeps the patient note as text, never markup, and shows no data the kind must not carry', async () => {
    const share = await resultShareMail(
      {
        sharedBy: 'Jane C.',
        contactName: null,
        history: true,
        note: 'See <b>this</b>\n<script>x</script>',
        link: 'https://p.example/r#t',
        validUntil: '4 May 2026',
      },
      context('en-AU'),
    );
    const document = new JSDOM(share.html).window.document;
    expect(document.querySelectorAll('b, script').length).toBe(0);
    expect(document.body.textContent).toContain('See <b>this</b>');
    expect(share.text).toContain('Hello,');
    const otp = await otpMail({ code: '482913', validMinutes: 10 }, context('en-AU'));
    expect(otp.text).not.toMatch(/Kq3_|Jane|Citizen/);
    expect(/\b(\d{6})\b/.exec(otp.text)?.[1]).toBe('482913');
  });
});
