import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { mailsTo } from './helpers/mail';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * Callback requests (docs/rules/callbacks.md): a patient on a phone asks to be
 * called back from the contact page, the call-centre mail arrives over SMTP, and staff at a desk
 * find both requests at /staff/callbacks, mark the first called with a note and see it move below
 * the open one. axe on each page; no sideways scroll.
 */
test.use({ ignoreHTTPSErrors: true, viewport: { width: 390, height: 844 } });

const CALL_CENTRE = 'callcentre@harbourrange.example';
const DESK = { width: 1440, height: 900 };
/** Names of letters only (the form's rule), different each run so a reused database cannot confuse them. */
const run = Date.now()
  .toString()
  .slice(-6)
  .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'a');
const FIRST = { firstName: 'Marija', lastName: `Callback${run}`, phone: `04 1${run.length}${Date.now().toString().slice(-7)}` };
const SECOND = { firstName: 'Ivan', lastName: `Later${run}`, phone: `+61 4 2${Date.now().toString().slice(-7)}` };
const REASON = 'No time after 5 pm suits me for my knee MRI.\nPlease call me after work.';
const dialled = (typed: string): string => (typed.trim().startsWith('+') ? '+' : '') + typed.replace(/\D/g, '');

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${where}: no sideways scroll`,
  ).toBeLessThanOrEqual(0);
}

/** Fills and sends the form; the client solves the proof-of-work check by itself on the way. */
async function askForCallback(page: Page, who: typeof FIRST, windows: string[]): Promise<void> {
  await page.getByLabel(t('callback.firstName')).fill(who.firstName);
  await page.getByLabel(t('callback.lastName')).fill(who.lastName);
  await page.getByLabel(t('callback.phone')).fill(who.phone);
  for (const window of windows) await page.getByLabel(t(`callback.window.${window}`)).check();
  await page.getByLabel(t('callback.reason')).fill(REASON);
}

test('a patient asks for a callback on a phone; the call centre gets the mail; staff mark it called at a desk', async ({
  page,
  browser,
}, testInfo) => {
  // Two proof-of-work checks, a mail over SMTP, a staff sign-in and axe five times: minutes on a busy machine.
  test.setTimeout(300_000);

  // The contact page offers it to a patient who is stuck ...
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: t('contact.callbackLink') })).toHaveAttribute('href', '/callback');
  // ... and so does the booking flow's time step, with the exam the patient was booking.
  await page.goto('/?step=1&exams=xr-chest&clinic=parramatta');
  await page.getByRole('link', { name: t('booking.callback.link') }).click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/callback\?exam=xr-chest$/);
  await expect(page.getByText(t('callback.examNoted'))).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: t('callback.title') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/callback (empty)');
  await expectNoSidewaysScroll(page, '/callback');

  // Sending it empty says what each field needs and puts the focus on the first.
  await page.getByRole('button', { name: t('callback.submit') }).click();
  await expect(page.getByLabel(t('callback.firstName'))).toBeFocused();
  for (const field of ['firstName', 'lastName', 'phone', 'windows', 'reason']) {
    await expect(page.getByText(t(`callback.problem.${field}`))).toBeVisible();
  }
  // A number too short is refused with the spec's rule in words.
  await page.getByLabel(t('callback.phone')).fill('0412 345');
  await page.getByLabel(t('callback.phone')).blur();
  await expect(page.getByText(t('callback.problem.phone'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/callback (problems)');

  await askForCallback(page, FIRST, ['weekdayMorning', 'saturdayMorning']);
  await expect(page.getByText(t('callback.counter', { used: REASON.length, max: 500 }))).toBeVisible();
  await expect(page.getByText(t('callback.problem.phone'))).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('callback-form-390.png'), fullPage: true });
  await page.getByRole('button', { name: t('callback.submit') }).click();
  const sent = page.getByRole('status').filter({ hasText: t('callback.sentTitle') });
  await expect(sent).toBeVisible({ timeout: 30_000 });
  await expect(sent).toContainText(t('callback.sent', { phone: dialled(FIRST.phone), windows: 'a weekday morning or a Saturday morning' }));
  await expect(sent).toBeFocused();
  await expectNoSeriousA11yViolations(page, '/callback (sent)');
  await expectNoSidewaysScroll(page, '/callback (sent)');
  await page.screenshot({ path: testInfo.outputPath('callback-sent-390.png'), fullPage: true });

  // A relative asks too, from the same phone, a little later: the request the first is compared with in the queue.
  await page.goto('/callback');
  await askForCallback(page, SECOND, ['anyTime']);
  await page.getByRole('button', { name: t('callback.submit') }).click();
  await expect(page.getByRole('status').filter({ hasText: t('callback.sentTitle') })).toBeVisible({ timeout: 30_000 });

  // The call centre's mail arrives over SMTP with what an agent needs.
  let mail: Awaited<ReturnType<typeof mailsTo>>[number] | undefined;
  await expect
    .poll(
      async () => {
        mail = (await mailsTo(CALL_CENTRE)).find((each) => each.subject?.includes(FIRST.lastName));
        return mail !== undefined;
      },
      { timeout: 30_000, message: 'no callback mail reached the call centre' },
    )
    .toBe(true);
  expect(mail?.subject).toBe(`Harbour & Range Radiology: Callback requested by ${FIRST.firstName} ${FIRST.lastName}`);
  for (const said of [
    dialled(FIRST.phone),
    'Weekday morning (7:30 am to 12 pm)',
    'Saturday morning (8 am to 12 pm)',
    'Please call me after work.',
  ]) {
    expect(mail?.text, said).toContain(said);
  }
  expect(mail?.text).toMatch(/\/staff\/callbacks/);
  expect(mail?.text).toContain('Exam they were booking');
  expect(mail?.html).toContain(`href="tel:${dialled(FIRST.phone)}"`);

  // Staff at a desk find both, the older first.
  const desk = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: DESK, ignoreHTTPSErrors: true });
  const staff = await desk.newPage();
  await staff.goto('/staff/callbacks');
  // A new browser downloads the staff page's code first: on a busy machine that takes a while.
  await expect(staff.getByRole('alert')).toContainText(t('staffCallbacks.signInNeeded'), { timeout: 30_000 });
  await signInThroughPopup(staff, () => staff.getByRole('button', { name: t('staffCallbacks.signIn') }).click(), DEMO_STAFF);
  // The table is named by its heading, which counts the open requests.
  const table = staff.getByRole('table', { name: new RegExp(`^${t('staffCallbacks.table')}`) });
  const rows = table.locator('tbody tr');
  const firstRow = rows.filter({ hasText: FIRST.lastName });
  const secondRow = rows.filter({ hasText: SECOND.lastName });
  await expect(firstRow).toBeVisible({ timeout: 30_000 });
  const order = async () =>
    (await rows.allTextContents()).map((text) =>
      text.includes(FIRST.lastName) ? 'first' : text.includes(SECOND.lastName) ? 'second' : 'other',
    );
  expect((await order()).filter((who) => who !== 'other')).toEqual(['first', 'second']);
  await expect(firstRow.getByRole('link', { name: dialled(FIRST.phone) })).toHaveAttribute('href', `tel:${dialled(FIRST.phone)}`);
  await expect(firstRow).toContainText(t('staffCallbacks.window.weekdayMorning'));
  await expect(firstRow).toContainText('Please call me after work.');
  await expect(firstRow).toContainText(/Was booking: .*X-?ray/i);
  await expect(firstRow).toContainText(t('staffCallbacks.status.open'));
  await expectNoSeriousA11yViolations(staff, '/staff/callbacks');
  await expectNoSidewaysScroll(staff, '/staff/callbacks');
  await staff.screenshot({ path: testInfo.outputPath('staff-callbacks-1440.png'), fullPage: true });

  // Marking the first called, with a note: it moves below the open one, with who called and the note.
  await firstRow.getByRole('button', { name: new RegExp(t('staffCallbacks.mark.button')) }).click();
  const dialog = staff.getByRole('dialog', { name: t('staffCallbacks.mark.title', { name: `${FIRST.firstName} ${FIRST.lastName}` }) });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(t('staffCallbacks.mark.note')).fill('Booked Thursday 5:30 pm at Parramatta');
  await expectNoSeriousA11yViolations(staff, '/staff/callbacks (dialog)');
  await staff.screenshot({ path: testInfo.outputPath('staff-callbacks-dialog-1440.png') });
  await dialog.getByRole('button', { name: t('staffCallbacks.mark.confirm') }).click();
  const done = staff
    .getByRole('status')
    .filter({ hasText: t('staffCallbacks.mark.done', { name: `${FIRST.firstName} ${FIRST.lastName}` }) });
  await expect(done).toBeVisible();
  await expect(done).toBeFocused();
  await expect(firstRow).toContainText(t('staffCallbacks.status.called'));
  await expect(firstRow).toContainText('Booked Thursday 5:30 pm at Parramatta');
  await expect(firstRow.getByRole('button', { name: new RegExp(t('staffCallbacks.mark.button')) })).toHaveCount(0);
  await expect(secondRow).toContainText(t('staffCallbacks.status.open'));
  expect((await order()).filter((who) => who !== 'other')).toEqual(['second', 'first']);
  await expectNoSeriousA11yViolations(staff, '/staff/callbacks (marked)');
  await staff.screenshot({ path: testInfo.outputPath('staff-callbacks-marked-1440.png'), fullPage: true });

  // The patient's form at a desk's width looks as finished as on the phone.
  await staff.goto('/callback');
  await expect(staff.getByRole('heading', { level: 1, name: t('callback.title') })).toBeVisible();
  await expectNoSidewaysScroll(staff, '/callback at 1440x900');
  await staff.screenshot({ path: testInfo.outputPath('callback-form-1440.png'), fullPage: true });
  await desk.close();
});
