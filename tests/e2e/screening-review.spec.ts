import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { dismissConsentNotice } from './helpers/consent-notice';
import { t } from './helpers/i18n';
import { mailsTo } from './helpers/mail';
import { signIn } from './helpers/sign-in';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * A screening held for review (docs/rules/screening-review.md): a patient books an MRI answering
 * that they have an implant but not its card, so the booking holds its time ON_HOLD; the patient's
 * link says it waits for review; a radiographer approves it on the staff queue; the patient's
 * appointment page then shows it booked, and the "confirmed after review" mail arrives.
 */

const IMPLANT_WITHOUT_CARD = {
  pacemaker: 'no',
  hasImplants: true,
  implantType: 'Knee replacement',
  implantCard: 'no',
  metalInEyes: 'no',
  claustrophobia: false,
  weightKg: 82,
};
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test('staff approve a held screening and the patient sees the booking confirmed', async ({ page, browser }, testInfo) => {
  test.setTimeout(150_000);
  // An MRI needs a Medicare number (2123456701 passes its check digit).
  const patient = { dateOfBirth: '1977-07-07', email: `screening.review.${Date.now()}@example.com`, medicareNumber: '2123456701' };
  const booking = await bookFresh(page.request, patient, 'mri-knee', 3, { 'mri-safety-screening': IMPLANT_WITHOUT_CARD });
  expect(booking.status).toBe('ON_HOLD');

  // The confirmation the booking browser sees: reserved while a radiographer checks the answers, not "booked".
  await page.setViewportSize(PHONE);
  await page.goto(`/appointments/${booking.key}/confirmed`);
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.confirmed.titlePending') })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(t('appointment.confirmed.leadReview'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'held screening (confirmation)');

  // The patient, on a phone, opens the booking: it waits for the radiographer.
  await page.goto(`/appointments/${booking.key}`);
  await signIn(page, patient);
  await expect(page).toHaveURL(/\/deny\?status=ON_HOLD$/);
  await expect(page.getByText(t('deny.waitingForProtocol'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'held screening (patient)');
  await page.screenshot({ path: testInfo.outputPath('screening-review-held-390.png'), fullPage: true });

  // A radiographer at a desk finds it with the answers that asked for the review, and approves it.
  const desk = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: DESK, ignoreHTTPSErrors: true });
  const staff = await desk.newPage();
  await staff.goto('/staff/screening-reviews');
  await expect(staff.getByRole('alert')).toContainText(t('staffScreeningReviews.signInNeeded'), { timeout: 30_000 });
  await signInThroughPopup(staff, () => staff.getByRole('button', { name: t('staffScreeningReviews.signIn') }).click(), DEMO_STAFF);
  const table = staff.getByRole('table', { name: new RegExp(`^${t('staffScreeningReviews.table')}`) });
  const row = table.locator('tbody tr').filter({ hasText: 'Journey' }).filter({ hasText: 'Knee replacement' }).first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('Do you have the card or letter that came with your implant');
  await expectNoSeriousA11yViolations(staff, 'screening reviews (staff)');
  await staff.screenshot({ path: testInfo.outputPath('screening-reviews-1440.png'), fullPage: true });

  await row.getByRole('button', { name: new RegExp(`^${t('staffScreeningReviews.approve.button')}`) }).click();
  const dialog = staff.getByRole('dialog', { name: /^Approve the booking of/ });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(staff, 'approve dialog (staff)');
  await dialog.getByRole('button', { name: t('staffScreeningReviews.approve.confirm') }).click();
  await expect(dialog).toBeHidden();
  await expect(staff.getByRole('status').filter({ hasText: /is decided/ })).toBeVisible();
  await desk.close();

  // The patient's link now shows the booking, booked at the time that was held.
  await page.goto(`/appointments/${booking.key}`);
  await expect(page.getByTestId('appointment-status')).toHaveText(t('appointment.status.BOOKED'), { timeout: 30_000 });
  await expect(page.getByTestId('appointment-time').first()).toHaveAttribute('datetime', booking.startsAt);
  // The MRI's consent forms are asked for once the appointment shows.
  await dismissConsentNotice(page);
  await expectNoSeriousA11yViolations(page, 'approved screening (patient)');
  await page.screenshot({ path: testInfo.outputPath('screening-review-booked-390.png'), fullPage: true });
  await expect
    .poll(async () => (await mailsTo(patient.email)).some((mail) => (mail.subject ?? '').includes('Your appointment is confirmed')), {
      timeout: 30_000,
    })
    .toBe(true);
});
