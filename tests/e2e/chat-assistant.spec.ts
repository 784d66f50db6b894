import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { MINIMAL_PDF } from './helpers/files';
import { t } from './helpers/i18n';
import { signIn } from './helpers/sign-in';
import { CHAT_LAUNCHER_DELAY_MS } from '../../src-web/features/chat-assistant/chat-constants';

/**
 * The built-in chat assistant (docs/rules/chat.md): on a phone and at a desk a
 * patient opens "Chat with us", says what scan they need in their own words, picks the match, a
 * clinic and times, uploads the referral, gives their details (one wrong first), sends; the
 * booking request exists on the server with the referral, the chat channel and the times (read
 * on its own page after signing in). axe on the open assistant; no sideways scroll; no launcher
 * in kiosk mode.
 */
test.use({ ignoreHTTPSErrors: true });

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1440, height: 900 };
/** Letters only (the name rule), different each run so a reused database cannot confuse requests. */
const run = Date.now()
  .toString()
  .slice(-6)
  .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'a');

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${where}: no sideways scroll`,
  ).toBeLessThanOrEqual(0);
}

/** The assistant's newest line says this text. */
async function expectSaid(log: Locator, text: string): Promise<void> {
  await expect(log.getByText(text, { exact: false }).last()).toBeVisible({ timeout: 15_000 });
}

async function answer(panel: Locator, text: string): Promise<void> {
  await panel.getByLabel(t('chat.input.label')).fill(text);
  await panel.getByLabel(t('chat.input.label')).press('Enter');
}

async function journey(page: Page, viewport: { width: number; height: number }, who: { lastName: string; email: string; phone: string }) {
  await page.setViewportSize(viewport);
  await page.goto('/');
  const launcher = page.getByRole('button', { name: t('chat.launcher') });
  await expect(launcher).toBeVisible({ timeout: 30_000 });
  await expectNoSidewaysScroll(page, 'booking home with the launcher');

  await launcher.click();
  const panel = page.getByRole('dialog', { name: t('chat.title') });
  await expect(panel).toBeVisible();
  const log = panel.getByRole('log');
  await expect(log).toHaveAttribute('aria-live', 'polite');
  // Focus goes into the panel; the first question follows the typing indicator.
  await expect(panel.getByLabel(t('chat.input.label'))).toBeFocused();
  await expectSaid(log, t('chat.say.askExam'));
  await expectNoSeriousA11yViolations(page, `chat open (${viewport.width})`);
  await expectNoSidewaysScroll(page, 'chat open');

  // Escape closes and gives the focus back to the launcher; the conversation stays.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(launcher).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();

  // 1. The exam in the patient's words: the booking's search offers the match.
  await answer(panel, 'xray of my chest');
  await expect(log.getByText('xray of my chest')).toBeVisible();
  await expectSaid(log, t('chat.say.matches'));
  // By keyboard: back from the answer field to the offered exam, Enter picks it.
  await expect(panel.getByLabel(t('chat.input.label'))).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(panel.getByRole('button', { name: t('chat.choice.somethingElse') })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(panel.getByRole('button', { name: 'X-ray chest' })).toBeFocused();
  await page.keyboard.press('Enter');

  // 2. The clinic, typed as a suburb.
  await expectSaid(log, t('chat.say.askClinic', { exam: 'X-ray chest' }));
  await expect(panel.getByRole('button', { name: t('chat.choice.anyClinic') })).toBeVisible();
  await answer(panel, 'Parramatta');

  // 3. The times: two chosen, then Continue.
  await expectSaid(log, t('chat.say.askTimes'));
  await panel.getByRole('button', { name: t('chat.time.weekdayMorning') }).click();
  await panel.getByRole('button', { name: t('chat.time.saturdayMorning') }).click();
  await expect(panel.getByRole('button', { name: t('chat.time.saturdayMorning') })).toHaveAttribute('aria-pressed', 'true');
  await panel.getByRole('button', { name: t('chat.choice.timesDone') }).click();

  // 4. The referral: a real file input; the queue sends it after its debounce.
  await expectSaid(log, t('chat.say.askReferral'));
  await panel.locator('input[type="file"]').setInputFiles({ name: 'referral.pdf', mimeType: 'application/pdf', buffer: MINIMAL_PDF });
  await expectSaid(log, t('chat.file.queued', { fileName: 'referral.pdf' }));
  await expectSaid(log, t('chat.file.sent', { fileName: 'referral.pdf' }));
  await expectSaid(log, t('chat.say.uploadsDone_one', { count: 1 }));
  await panel.getByRole('button', { name: t('chat.choice.referralDone') }).click();

  // 5. The details, one at a time; a wrong first name gets the booking's message and the question again.
  await expectSaid(log, t('chat.say.askField.title'));
  await panel.getByRole('button', { name: 'Ms', exact: true }).click();
  await expectSaid(log, t('chat.say.askField.firstName'));
  await answer(panel, 'Ada 2');
  await expectSaid(log, t('chat.say.problem.firstName'));
  await expect(log.getByText(t('chat.say.askField.firstName'))).toHaveCount(2);
  await answer(panel, 'Ada');
  await expectSaid(log, t('chat.say.askField.lastName'));
  await answer(panel, who.lastName);
  await expectSaid(log, t('chat.say.askField.dateOfBirth'));
  await answer(panel, '14/03/1991');
  await expectSaid(log, t('chat.say.askField.email'));
  await answer(panel, who.email);
  await expectSaid(log, t('chat.say.askField.contactNumber'));
  await answer(panel, who.phone);
  await expectSaid(log, t('chat.say.askField.postalCode'));
  await answer(panel, '2150');

  // 6. The summary, then the real request.
  await expectSaid(log, t('chat.say.summary'));
  await expect(log.getByText(t('chat.time.saturdayMorning'), { exact: false }).last()).toBeVisible();
  await expectNoSeriousA11yViolations(page, `chat summary (${viewport.width})`);
  await panel.getByRole('button', { name: t('chat.choice.send') }).click();
  const requestLink = log.getByRole('link', { name: t('chat.link.request') });
  await expect(requestLink).toBeVisible({ timeout: 30_000 });
  await expectNoSidewaysScroll(page, 'chat sent');
  const href = await requestLink.getAttribute('href');
  expect(href).toMatch(/^\/booking-requests\/[A-Za-z0-9_-]+$/);

  // The request on the server: its page (after the sign-in) shows the chat, the times and the referral.
  await page.goto(href ?? '');
  const heading = page.getByRole('heading', { level: 1, name: t('bookingRequest.title') });
  await signIn(page, { dateOfBirth: '1991-03-14', email: who.email }, heading);
  await expect(heading).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('X-ray chest').first()).toBeVisible();
  await expect(page.getByText(t('bookingRequest.request.channelChat'))).toBeVisible();
  await expect(
    page.getByText(`${t('bookingRequest.request.time.weekdayMorning')}, ${t('bookingRequest.request.time.saturdayMorning')}`),
  ).toBeVisible();
  await expect(page.getByText(t('bookingRequest.request.screeningByPhone'))).toBeVisible();
  await expect(page.getByText('referral.pdf').first()).toBeVisible({ timeout: 30_000 });
}

test.describe('on a phone', () => {
  test.use({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.91' } });
  test('the assistant collects a booking request with a referral in conversation', async ({ page }) => {
    test.setTimeout(240_000);
    await journey(page, PHONE, { lastName: `Chatphone${run}`, email: `chat.phone.${run}@example.com`, phone: '0412345671' });
  });
});

test.describe('at a desk', () => {
  test.use({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.92' } });
  test('the assistant collects a booking request with a referral in conversation', async ({ page }) => {
    test.setTimeout(240_000);
    await journey(page, DESK, { lastName: `Chatdesk${run}`, email: `chat.desk.${run}@example.com`, phone: '0412345672' });
  });
});

test.describe('where it does not show', () => {
  test.use({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.93' } });
  test('no launcher in kiosk mode, nor on staff pages', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/contact');
    await expect(page.getByRole('button', { name: t('chat.launcher') })).toBeVisible({ timeout: 30_000 });
    // The launcher comes a few seconds after the page has loaded: each absence is checked after that.
    const afterLauncherDelay = () => page.waitForTimeout(CHAT_LAUNCHER_DELAY_MS + 2500);
    await page.goto('/staff');
    await expect(page.locator('main')).toBeVisible();
    await afterLauncherDelay();
    await expect(page.getByRole('button', { name: t('chat.launcher') })).toHaveCount(0);
    await page.goto('/kiosk?kioskMode=true');
    await expect(page.locator('main').first()).toBeVisible({ timeout: 30_000 });
    await afterLauncherDelay();
    await expect(page.getByRole('button', { name: t('chat.launcher') })).toHaveCount(0);
    // Kiosk mode stays on for the browser session: a patient page shows no launcher either.
    await page.goto('/contact');
    await expect(page.locator('main').first()).toBeVisible();
    await afterLauncherDelay();
    await expect(page.getByRole('button', { name: t('chat.launcher') })).toHaveCount(0);
  });
});

test.describe('on the booking steps on a phone', () => {
  test.use({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.94' } });
  test("the launcher does not cover the step's Back and Continue, scrolled or not", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/?step=1&exams=xr-chest&clinic=parramatta');
    const launcher = page.getByRole('button', { name: t('chat.launcher') });
    const actions = page.locator('.pp-booking .pp-actions');
    await expect(launcher).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: t('booking.actions.back') })).toBeVisible({ timeout: 30_000 });
    for (const scroll of ['top', 'bottom'] as const) {
      await page.evaluate((where) => window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight), scroll);
      await page.waitForTimeout(100);
      const [a, b] = [await launcher.boundingBox(), await actions.boundingBox()];
      if (!a || !b) throw new Error('no box');
      const overlap = a.y < b.y + b.height && b.y < a.y + a.height && a.x < b.x + b.width && b.x < a.x + a.width;
      expect(overlap, `launcher over Back / Continue at the ${scroll}`).toBe(false);
    }
    await expectNoSidewaysScroll(page, 'booking step 1 with the launcher');
  });
});
