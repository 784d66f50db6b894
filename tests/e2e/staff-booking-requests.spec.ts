import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { screenedKey } from './helpers/booking';
import { t } from './helpers/i18n';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * The booking team's queue of booking requests (docs/rules/booking.md#the-staff-queue): a patient
 * asks for an enquiry-only exam with their payment, background and referring practice; staff at a
 * desk find the request whole at /staff/booking-requests and mark it handled with a note. axe on
 * each state; no sideways scroll.
 */

// Requests made through the API count against the booking limits of their address: these come from one of their own.
const CLIENT = { 'X-Forwarded-For': '203.0.113.81' };
test.use({ extraHTTPHeaders: CLIENT, viewport: { width: 1440, height: 900 } });

const EXAM = 'ir-thyroid-fna';
/** A surname of letters only, different each run so a reused database cannot confuse them. */
const SURNAME = `Request${Date.now()
  .toString()
  .slice(-6)
  .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'a')}`;

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${where}: no sideways scroll`,
  ).toBeLessThanOrEqual(0);
}

test('a booking request with payment, background and the referring practice reaches the staff queue, and staff mark it handled', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const made = await request.post('/api/booking/booking-requests', {
    headers: { 'Idempotency-Key': crypto.randomUUID(), 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      exams: [EXAM],
      questionnaireKey: await screenedKey(request, [EXAM], CLIENT),
      patientNotes: 'Mornings suit me best.',
      patient: {
        title: 'Ms',
        firstName: 'Rhea',
        lastName: SURNAME,
        dateOfBirth: '1979-04-12',
        email: 'rhea.request@example.com',
        contactNumber: '0491570144',
        postalCode: '2150',
      },
      formDetails: {
        insurance: { typeCode: 'DVA', memberNumber: 'NX123456' },
        ethnicityCode: 'TORRES_STRAIT_ISLANDER',
        referringPractice: { name: 'Harbour Medical Centre', suburb: 'Parramatta' },
      },
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  await page.goto('/staff/booking-requests');
  // A new browser downloads the staff page's code first: on a busy machine that takes a while.
  await expect(page.getByRole('alert')).toContainText(t('staffBookingRequests.signInNeeded'), { timeout: 30_000 });
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('staffBookingRequests.signIn') }).click(), DEMO_STAFF);
  const table = page.getByRole('table', { name: new RegExp(`^${t('staffBookingRequests.table')}`) });
  const row = table.locator('tbody tr').filter({ hasText: SURNAME });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('Ultrasound-guided thyroid fine needle aspiration');
  await expect(row).toContainText(t('staffBookingRequests.anyClinic'));
  await expect(row).toContainText('Mornings suit me best.');
  await expect(row).toContainText('NX123456');
  await expect(row).toContainText(/Torres Strait Islander/);
  await expect(row).toContainText('Harbour Medical Centre, Parramatta');
  await expect(row.getByRole('link', { name: '0491570144' })).toHaveAttribute('href', 'tel:0491570144');
  await expect(row).toContainText(t('staffBookingRequests.status.open'));
  await expectNoSeriousA11yViolations(page, '/staff/booking-requests');
  await expectNoSidewaysScroll(page, '/staff/booking-requests at 1440x900');
  await page.screenshot({ path: testInfo.outputPath('staff-booking-requests-1440.png'), fullPage: true });

  const name = `Ms Rhea ${SURNAME}`;
  await row.getByRole('button', { name: new RegExp(t('staffBookingRequests.mark.button')) }).click();
  const dialog = page.getByRole('dialog', { name: t('staffBookingRequests.mark.title', { name }) });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(t('staffBookingRequests.mark.note')).fill('Booked Parramatta Thursday 9:30 am');
  await expectNoSeriousA11yViolations(page, '/staff/booking-requests (dialog)');
  await dialog.getByRole('button', { name: t('staffBookingRequests.mark.confirm') }).click();
  const done = page.getByRole('status').filter({ hasText: t('staffBookingRequests.mark.done', { name }) });
  await expect(done).toBeVisible();
  await expect(done).toBeFocused();
  await expect(row).toContainText(t('staffBookingRequests.status.handled'));
  await expect(row).toContainText('Booked Parramatta Thursday 9:30 am');
  await expect(row.getByRole('button', { name: new RegExp(t('staffBookingRequests.mark.button')) })).toHaveCount(0);
  // A link under the pointer stays readable on a done row's background (the pointer rests where the dialog's button was).
  await row.getByRole('link', { name: '0491570144' }).hover();
  await expectNoSeriousA11yViolations(page, '/staff/booking-requests (handled)');

  // On a phone the table scrolls inside itself; the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, '/staff/booking-requests at 390x844');
  await page.screenshot({ path: testInfo.outputPath('staff-booking-requests-390.png'), fullPage: true });
});
