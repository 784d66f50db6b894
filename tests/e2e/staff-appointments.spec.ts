import { expect, test, type Page } from '@playwright/test';
import { createSignedLinks, parseSignedLinkKeys } from '../../src-server/platform/signed-links';
import { createTestClock } from '../../src-server/platform/clock';
import { REPLY_LINK } from '../../src-server/modules/appointments/reminder-reply';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { t } from './helpers/i18n';
import { E2E_SIGNED_LINK_KEYS } from './helpers/servers';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * The front desk's confirmation list (docs/rules/staff-appointments.md): a booking made in the
 * test shows on its clinic's day with "No answer yet"; the patient answers "I will come" through
 * the reminder mail's link (signed as the server's reminder signs it, as appointment-reply.spec.ts
 * does), and the desk sees "Confirmed by e-mail". axe on the page; no sideways scroll at the
 * desks' sizes; screenshots at the desks' sizes and a phone's.
 */
test.use({ ignoreHTTPSErrors: true });

const DESKS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 1024 },
];
const PHONE = { width: 390, height: 844 };

/** The start's calendar day where the demo clinics are (every clinic the booking helper picks is in Sydney's zone). */
const clinicDay = (startsAt: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(startsAt),
  );

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${where}: no sideways scroll`,
  ).toBeLessThanOrEqual(0);
}

test('the desk sees a new booking unanswered, then confirmed by e-mail once the patient answers the reminder', async ({
  page,
  request,
}, testInfo) => {
  // A booking with its proof-of-work check, a staff sign-in and axe twice: minutes on a busy machine.
  test.setTimeout(180_000);
  const booking = await bookFresh(request, { email: `desk.${Date.now()}@example.com`, dateOfBirth: '1983-04-05' });
  const day = clinicDay(booking.startsAt);

  await page.setViewportSize(DESKS[0] ?? PHONE);
  await page.goto(`/staff/appointments?clinic=${booking.clinic}&date=${day}`);
  // A new browser downloads the staff page's code first: on a busy machine that takes a while.
  await expect(page.getByRole('alert')).toContainText(t('staffAppointments.signInNeeded'), { timeout: 30_000 });
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('staffAppointments.signIn') }).click(), DEMO_STAFF);

  const table = page.getByRole('table', { name: /^Appointments on / });
  await expect(table).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('textbox', { name: t('staffAppointments.date'), exact: true })).toHaveValue(day);
  const row = table.locator('tbody tr', { has: page.locator(`time[datetime="${booking.startsAt}"]`) }).filter({ hasText: 'Journey' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('staff-appointment-answer')).toHaveText(t('staffAppointments.answer.none'));
  await expect(row).toContainText(t('staffAppointments.reminder.none'));
  await expect(row.getByRole('link')).toHaveAttribute('href', /^tel:\+?\d{9,15}$/);

  // "No answer first" puts ours above every answered one.
  await page.getByText(t('staffAppointments.orderNoAnswerFirst')).click();
  const answers = await table.getByTestId('staff-appointment-answer').allTextContents();
  const firstAnswered = answers.findIndex((answer) => answer !== t('staffAppointments.answer.none'));
  expect(firstAnswered === -1 || answers.slice(firstAnswered).every((answer) => answer !== t('staffAppointments.answer.none'))).toBe(true);

  for (const size of DESKS) {
    await page.setViewportSize(size);
    await expectNoSidewaysScroll(page, `/staff/appointments at ${size.width}x${size.height}`);
    await page.screenshot({ path: testInfo.outputPath(`staff-appointments-${size.width}.png`), fullPage: true });
  }
  await expectNoSeriousA11yViolations(page, '/staff/appointments');

  // The patient answers "I will come" from the reminder mail's link.
  const links = createSignedLinks({ keys: parseSignedLinkKeys(E2E_SIGNED_LINK_KEYS), clock: createTestClock(new Date()) });
  const token = links.sign({ ...REPLY_LINK, subject: booking.key, ttlMs: 2 * 86_400_000 });
  const confirmed = await request.post(`/api/appointment-reply/confirm?token=${encodeURIComponent(token)}`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: {},
  });
  expect(confirmed.status()).toBe(200);

  // The desk looks again (the address kept the clinic and the day).
  await page.reload();
  await expect(row.getByTestId('staff-appointment-answer')).toHaveText(t('staffAppointments.answer.confirmedByEmail'), {
    timeout: 30_000,
  });
  await expect(row.getByTestId('staff-appointment-status')).toHaveText(t('staffAppointments.status.CONFIRMED'));
  await page.setViewportSize(DESKS[0] ?? PHONE);
  await expectNoSeriousA11yViolations(page, '/staff/appointments after the answer');
  await page.screenshot({ path: testInfo.outputPath('staff-appointments-confirmed-1440.png'), fullPage: true });

  await page.setViewportSize(PHONE);
  await page.screenshot({ path: testInfo.outputPath('staff-appointments-390.png'), fullPage: true });
});
