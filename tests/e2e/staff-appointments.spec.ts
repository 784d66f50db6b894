import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { t } from './helpers/i18n';
import { mailsTo } from './helpers/mail';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * The front desk's confirmation list (docs/rules/staff-appointments.md): a booking made in the
 * test shows on its clinic's day with "No answer yet"; the desk sends its reminder again; the
 * reminder mail arrives over SMTP and the patient taps its "Yes, I will come" (issue 31: confirm
 * from a reminder mail); the desk sees "Confirmed by e-mail". axe on the page; no sideways scroll at the
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
  browser,
  page,
  request,
}, testInfo) => {
  // A booking with its proof-of-work check, a staff sign-in and axe twice: minutes on a busy machine.
  test.setTimeout(180_000);
  const email = `desk.${Date.now()}@example.com`;
  const booking = { ...(await bookFresh(request, { email, dateOfBirth: '1983-04-05' })), email };
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

  // The patient says the reminder never came: the desk sends it again, and it arrives by e-mail.
  await row.getByRole('button', { name: /^Send reminder/ }).click();
  await expect(row.getByTestId('staff-reminder-sent')).toHaveText('Reminder sent by e-mail.');
  await expect(row).toContainText(t('staffAppointments.reminder.email'));
  await expect
    .poll(async () => (await mailsTo(booking.email)).some((mail) => /Reminder of your appointment/.test(mail.subject ?? '')), {
      timeout: 30_000,
    })
    .toBe(true);
  const reminder = (await mailsTo(booking.email)).find((mail) => /Reminder of your appointment/.test(mail.subject ?? ''));
  const yes =
    /href="[^"]*(\/appointment-reply\?token=[^"]+answer=confirm)"/.exec(String(reminder?.html))?.[1]?.replace(/&amp;/g, '&') ?? '';
  expect(yes, 'the mail has "Yes, I will come"').not.toBe('');

  // The patient answers "Yes, I will come" from the mail, on their phone.
  const patientContext = await browser.newContext({ viewport: PHONE, baseURL: testInfo.project.use.baseURL });
  const patientPage = await patientContext.newPage();
  await patientPage.goto(yes);
  await expect(patientPage.getByRole('heading', { level: 2, name: 'Will you come?' })).toBeVisible();
  await patientPage.getByRole('button', { name: 'Yes, I will come' }).click();
  await expect(patientPage.getByTestId('reply-outcome')).toContainText('Thank you: your appointment is confirmed.');
  await expectNoSeriousA11yViolations(patientPage, "the reminder mail's answer page");
  await patientContext.close();

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
