import type { Server } from 'node:http';
import { expect, test, type APIRequestContext, type FrameLocator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { dismissConsentNotice } from './helpers/consent-notice';
import { t } from './helpers/i18n';
import { EMBED_PARENT_PORT, startParentSite } from './helpers/servers';
import { bookFresh } from './helpers/booking';
import { signIn } from './helpers/sign-in';

/**
 * Appointment self-service and booking requests against the real server and the demo
 * provider (otpRequired is on): sign in through the /authentication page with the date of birth
 * and the code read from the test SMTP server, then cancel with a reason, reschedule to a new
 * time, cancel a booking request, and the same inside /iframe; axe on every page.
 * Bookings come from resources/demo-provider/appointments.json and self-service.json (ones no
 * other journey uses: all spec files share one server), or are booked here through the booking
 * API; each test uses its own booking.
 */

const HARPER = {
  key: '7H3MErioM1s418Nitkng_A',
  dateOfBirth: '1972-08-18',
  email: 'harper.sample@example.com',
  exam: 'mg-screening-mammogram',
  clinic: 'tweed-heads',
};
const CHLOE = { key: 'im5aSNG4BCr1GBpWEmFTjQ', dateOfBirth: '1983-06-29', email: 'chloe.specimen@example.com' };
const NOAH = {
  key: 'LLVul4grjGhwX2gNEagIbw',
  dateOfBirth: '1974-12-05',
  email: 'noah.specimen@example.com',
  exam: 'us-shoulder',
  clinic: 'coolangatta',
};
const REQUEST = { key: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23', email: 'chloe.request@example.com' };
const REQUEST_TWO_REFERRALS = { key: 'sJOROmG7Kksv3ga8UObC2A', dateOfBirth: '1962-09-08', email: 'harriet.request@example.com' };

type Surface = Page | FrameLocator;

/** Free start times of an exam at a clinic around an instant (the booking availability API). */
async function freeTimes(request: APIRequestContext, exam: string, clinic: string, around: string): Promise<string[]> {
  const from = new Date(Date.parse(around) - 86_400_000).toISOString().slice(0, 10);
  const response = await request.get(`/api/booking/availability?exams=${exam}&clinics=${clinic}&from=${from}&days=3`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { clinics: { clinicSlug: string; days: { slots: { startsAt: string }[] }[] }[] };
  return body.clinics.flatMap((entry) => entry.days.flatMap((day) => day.slots.map((slot) => slot.startsAt)));
}

async function expectAppointmentPage(surface: Surface): Promise<void> {
  await expect(surface.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  await expect(surface.getByRole('heading', { level: 2, name: t('appointment.summary.title') })).toBeVisible();
}

/** Cancel with a reason: the server check, yes on the confirmation, the reason dialog. */
async function cancelWithReason(surface: Surface, page: Page): Promise<void> {
  await surface.getByRole('button', { name: t('appointment.actions.cancel') }).click();
  const confirm = surface.getByRole('alertdialog', { name: t('appointment.cancel.confirmTitle') });
  await expect(confirm).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'cancel confirmation');
  await confirm.getByRole('button', { name: t('appointment.yes') }).click();
  const reasons = surface.getByRole('dialog', { name: t('appointment.cancel.reasonTitle') });
  await expect(reasons).toBeVisible();
  await reasons.getByRole('button', { name: t('appointment.cancel.submit') }).click();
  await expect(reasons.getByText(t('appointment.cancel.reasonRequired'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'cancel reason dialog');
  await reasons.getByRole('radio', { name: 'I am feeling better' }).check();
  await reasons.getByLabel(t('appointment.cancel.noteLabel')).fill('Feeling much better, thank you.');
  await reasons.getByRole('button', { name: t('appointment.cancel.submit') }).click();
  await expect(surface.getByText(t('appointment.notice.cancelled'))).toBeVisible();
  // The Cancel button left with the booking's actions: the keyboard focus is on the outcome.
  await expect(surface.getByText(t('appointment.notice.cancelled'))).toBeFocused();
  await expect(surface.getByTestId('appointment-status')).toHaveText(t('appointment.status.CANCELED'));
}

test('a patient signs in from the appointment link and cancels with a reason; the time is free again', async ({ page }) => {
  const patient = { dateOfBirth: '1990-04-12', email: 'liam.journey@example.com' };
  const booking = await bookFresh(page.request, patient);
  expect(await freeTimes(page.request, booking.exam, booking.clinic, booking.startsAt)).not.toContain(booking.startsAt);

  await page.goto(`/appointments/${booking.key}`);
  await expect(page).toHaveURL(/\/authentication\?/);
  await signIn(page, patient);
  await expect(page).toHaveURL(new RegExp(`/appointments/${booking.key}$`));
  await expectAppointmentPage(page);
  await dismissConsentNotice(page);
  await expect(page.getByTestId('appointment-status')).toHaveText(t('appointment.status.BOOKED'));
  await expect(page.getByTestId('appointment-time').first()).toHaveAttribute('datetime', booking.startsAt);
  await expect(page.getByRole('link', { name: /on a map/ })).toHaveAttribute('href', /^https:\/\//);
  await expectNoSeriousA11yViolations(page, '/appointments (summary)');

  await cancelWithReason(page, page);
  await expectNoSeriousA11yViolations(page, '/appointments (cancelled)');
  expect(await freeTimes(page.request, booking.exam, booking.clinic, booking.startsAt)).toContain(booking.startsAt);

  // Opening the link again: a cancelled appointment goes to /deny with its message.
  await page.goto(`/appointments/${booking.key}`);
  await expect(page).toHaveURL(/\/deny\?status=CANCELED$/);
  await expect(page.getByText(t('deny.canceled'))).toBeVisible();
});

test('a patient reschedules to a new time: the new time is shown and the old one is free', async ({ page }) => {
  await page.goto(`/a/${HARPER.key}`);
  await signIn(page, HARPER);
  await expect(page).toHaveURL(new RegExp(`/a/${HARPER.key}$`));
  await expectAppointmentPage(page);
  await dismissConsentNotice(page);
  const oldStart = (await page.getByTestId('appointment-time').first().getAttribute('datetime')) ?? '';
  expect(oldStart).not.toBe('');

  await page.getByRole('button', { name: t('appointment.actions.reschedule'), exact: true }).click();
  await expect(page).toHaveURL(/[?&]reschedule=/);
  await expect(page.getByText(t('booking.reschedule.banner'))).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
  // The booking's clinic is chosen for the patient; pick its first free time.
  const firstTime = page.locator('.pp-slot').first();
  await expect(firstTime).toBeVisible({ timeout: 15_000 });
  await firstTime.click();
  await expect(page.getByText(/is held for you until/)).toBeVisible();
  const newStart = new URL(page.url()).searchParams.get('time') ?? '';
  expect(newStart).not.toBe('');
  expect(newStart).not.toBe(oldStart);
  await page.getByRole('button', { name: t('action.continue') }).click();

  await expect(page.getByRole('heading', { level: 2, name: t('booking.reschedule.title') })).toBeVisible();
  await expect(page.getByText(t('booking.reschedule.from'), { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'reschedule step');
  await page.getByRole('button', { name: t('booking.reschedule.submit') }).click();

  await expect(page).toHaveURL(new RegExp(`/appointments/${HARPER.key}$`));
  await expect(page.getByText(t('appointment.notice.moved'))).toBeVisible();
  await expect(page.getByTestId('appointment-time').first()).toHaveAttribute('datetime', newStart);
  await expect(page.getByTestId('appointment-status')).toHaveText(t('appointment.status.BOOKED'));
  await expectNoSeriousA11yViolations(page, '/appointments (moved)');

  expect(await freeTimes(page.request, HARPER.exam, HARPER.clinic, oldStart)).toContain(oldStart);
  expect(await freeTimes(page.request, HARPER.exam, HARPER.clinic, newStart)).not.toContain(newStart);
});

test('on a phone, a patient signs a consent form, asks for a details change, confirms, stops e-mails and asks for a reschedule', async ({
  page,
}) => {
  // On a phone: the dialogs must fit and stay usable at 375 x 667.
  await page.setViewportSize({ width: 375, height: 667 });
  const patient = { dateOfBirth: '1984-02-29', email: 'mia.selfservice@example.com' };
  const booking = await bookFresh(page.request, patient, 'us-abdomen');
  await page.goto(`/appointments/${booking.key}`);
  await signIn(page, patient);
  await expectAppointmentPage(page);

  // The consent notification leads to the first unsigned form: read it, sign with a typed name.
  const notice = page.getByRole('dialog', { name: t('appointment.consent.notificationTitle') });
  await expect(notice).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'consent notification');
  await notice.getByRole('button', { name: t('appointment.consent.signNow') }).click();
  const form = page.getByRole('dialog', { name: 'Privacy and consent to examination' });
  await expect(form.getByRole('heading', { name: 'Privacy and consent', exact: true })).toBeVisible();
  await form.getByRole('button', { name: t('appointment.consent.save') }).click();
  await expect(form.getByText(t('appointment.consent.nameRequired'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'consent form');
  await form.getByLabel(t('appointment.consent.nameLabel')).fill('Mia Selfservice');
  await form.getByLabel(t('appointment.consent.agree')).check();
  await form.getByRole('button', { name: t('appointment.consent.save') }).click();
  await expect(page.getByText(t('appointment.notice.consentSigned'))).toBeVisible();
  await expect(page.getByText(t('appointment.consent.signed', { name: 'Mia Selfservice' }))).toBeVisible();

  await page.getByRole('button', { name: t('appointment.more.details') }).click();
  const details = page.getByRole('dialog', { name: t('appointment.details.title') });
  await details.getByLabel(t('appointment.details.email')).fill('not-an-address');
  await details.getByRole('button', { name: t('appointment.details.submit') }).click();
  const refused = page.getByRole('alertdialog', { name: t('appointment.details.errorTitle') });
  await expect(refused).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'details change error');
  await refused.getByRole('button', { name: t('appointment.details.tryAgain') }).click();
  await details.getByLabel(t('appointment.details.email')).fill('mia.new@example.com');
  await details.getByRole('button', { name: t('appointment.details.submit') }).click();
  const sent = page.getByRole('dialog', { name: t('appointment.details.successTitle') });
  await expect(sent).toBeVisible();
  await sent.getByRole('button', { name: t('action.close') }).click();

  await page.getByRole('button', { name: t('appointment.actions.confirm') }).click();
  await expect(page.getByTestId('appointment-status')).toHaveText(t('appointment.status.CONFIRMED'));

  await page.getByRole('button', { name: t('appointment.more.unsubscribe') }).click();
  await expect(page.getByText(t('appointment.more.unsubscribed'))).toBeVisible();

  await page.getByRole('button', { name: t('appointment.actions.requestReschedule') }).click();
  await page
    .getByRole('alertdialog', { name: t('appointment.requestReschedule.title') })
    .getByRole('button', { name: t('appointment.yes') })
    .click();
  await expect(page.getByTestId('appointment-status')).toHaveText(t('appointment.status.REQUEST_RESCHEDULE'));
  await expectNoSeriousA11yViolations(page, '/appointments (after the actions)');
});

test('a booking request: details, referral download, booking information, cancel with confirmation', async ({ page }) => {
  await page.goto(`/br/${REQUEST.key}`);
  await expect(page).toHaveURL(/\/authentication\?.*type=BOOKING_REQUEST/);
  await signIn(page, REQUEST);
  await expect(page).toHaveURL(new RegExp(`/br/${REQUEST.key}$`));
  await expect(page.getByRole('heading', { level: 1, name: t('bookingRequest.title') })).toBeVisible();
  await expect(page.getByTestId('booking-request-status')).toHaveText(t('bookingRequest.status.BOOKED'));
  await expect(page.getByText('Chloe', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('Mornings suit me best.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/booking-requests');

  const download = page.getByRole('link', { name: t('bookingRequest.referral.download') });
  const href = (await download.getAttribute('href')) ?? '';
  expect(href).toMatch(new RegExp(`/api/secured/booking_requests/${REQUEST.key}/attachments/[0-9a-f-]{36}/download$`));
  const file = await page.request.get(href);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-disposition']).toContain('attachment');

  await page.getByRole('button', { name: t('bookingRequest.info.button') }).click();
  const info = page.getByRole('dialog', { name: t('bookingRequest.info.title') });
  await expect(info.getByText(/within two business days/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'booking information dialog');
  await info.getByRole('button', { name: t('action.close') }).click();

  await page.getByRole('button', { name: t('bookingRequest.cancel.button') }).click();
  const confirm = page.getByRole('alertdialog', { name: t('bookingRequest.cancel.confirmTitle') });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: t('bookingRequest.yes') }).click();
  await expect(page.getByText(t('bookingRequest.cancel.done'))).toBeVisible();
  await expect(page.getByTestId('booking-request-status')).toHaveText(t('bookingRequest.status.CANCELED'));
  await expect(page.getByRole('button', { name: t('bookingRequest.cancel.button') })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/booking-requests (cancelled)');
});

test('a booking request with several referrals lists them in the attachments dialog', async ({ page }) => {
  await page.goto(`/booking-requests/${REQUEST_TWO_REFERRALS.key}`);
  await signIn(page, REQUEST_TWO_REFERRALS);
  await expect(page.getByRole('heading', { level: 1, name: t('bookingRequest.title') })).toBeVisible();
  await page.getByRole('button', { name: t('bookingRequest.referral.attachments', { number: 2 }) }).click();
  const list = page.getByRole('dialog', { name: t('bookingRequest.referral.title') });
  await expect(list.getByRole('link')).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'attachments dialog');
});

test.describe('inside a provider frame', () => {
  let parents: Server[] = [];
  test.afterEach(async () => {
    await Promise.all(parents.map((parent) => new Promise<void>((resolve) => parent.close(() => resolve()))));
    parents = [];
  });
  const framed = async (page: Page, path: string): Promise<FrameLocator> => {
    parents.push(await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', path));
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    return page.frameLocator('iframe[title="Patient portal"]');
  };

  test('a patient signs in and cancels with a reason inside /iframe', async ({ page }) => {
    const frame = await framed(page, `/iframe/appointments/${CHLOE.key}`);
    await expect(frame.getByLabel(t('authentication.fields.dateOfBirth'))).toBeVisible();
    await signIn(frame, CHLOE);
    await expectAppointmentPage(frame);
    await dismissConsentNotice(frame);
    await expect(frame.getByTestId('appointment-status')).toHaveText(t('appointment.status.BOOKED'));
    await expectNoSeriousA11yViolations(page, '/iframe/appointments');
    await cancelWithReason(frame, page);
    const inFrame = page.frames().find((candidate) => candidate.url().includes('/iframe/'));
    expect(inFrame?.url()).toContain(`/iframe/appointments/${CHLOE.key}`);
  });

  test('a patient reschedules inside /iframe and comes back to the framed appointment with the new time', async ({ page }) => {
    const frame = await framed(page, `/iframe/appointments/${NOAH.key}`);
    await signIn(frame, NOAH);
    await expectAppointmentPage(frame);
    await dismissConsentNotice(frame);
    await expect(frame.getByTestId('appointment-status')).toHaveText(t('appointment.status.REQUEST_RESCHEDULE'));
    const oldStart = (await frame.getByTestId('appointment-time').first().getAttribute('datetime')) ?? '';

    await frame.getByRole('button', { name: t('appointment.actions.reschedule'), exact: true }).click();
    await expect(frame.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
    const firstTime = frame.locator('.pp-slot').first();
    await expect(firstTime).toBeVisible({ timeout: 15_000 });
    await firstTime.click();
    await expect(frame.getByText(/is held for you until/)).toBeVisible();
    await frame.getByRole('button', { name: t('action.continue') }).click();
    await frame.getByRole('button', { name: t('booking.reschedule.submit') }).click();

    await expect(frame.getByText(t('appointment.notice.moved'))).toBeVisible();
    // The consent notification opened on the first visit only.
    await expect(frame.getByRole('dialog', { name: t('appointment.consent.notificationTitle') })).toHaveCount(0);
    const inFrame = page.frames().find((candidate) => candidate.url().includes('/iframe/'));
    expect(inFrame?.url()).toContain(`/iframe/appointments/${NOAH.key}`);
    const newStart = (await frame.getByTestId('appointment-time').first().getAttribute('datetime')) ?? '';
    expect(newStart).not.toBe(oldStart);
    await expect(frame.getByTestId('appointment-status')).toHaveText(t('appointment.status.BOOKED'));
    await expectNoSeriousA11yViolations(page, '/iframe/appointments (moved)');
    expect(await freeTimes(page.request, NOAH.exam, NOAH.clinic, oldStart)).toContain(oldStart);
  });
});
