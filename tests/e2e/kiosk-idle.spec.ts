import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { t } from './helpers/i18n';
import { pauseClockAfterActivity } from './helpers/clock';
import { signIn } from './helpers/sign-in';

/**
 * The kiosk idle cycle (docs/rules/kiosk.md#inactivity) in Chromium with the page's clock under
 * the test's control: a patient signed in at a browser kiosk leaves; after kioskNoActivitySeconds
 * (90 s for the demo provider) the inactivity dialog counts down 10 s; Cancel and activity keep
 * the session; the end of the countdown signs the patient out, empties the browser's storage and
 * goes to the kiosk home, and Back shows nothing of the patient.
 */

const IDLE_MS = 90_000;
const COUNTDOWN_MS = 10_000;

function inactivityDialog(page: Page) {
  return page.getByRole('alertdialog', { name: t('kiosk.inactivityTitle') });
}

/** Books a fresh appointment and signs its patient in on the appointment page in kiosk mode. */
async function signedInAtKiosk(page: Page, email: string): Promise<string> {
  const patient = { dateOfBirth: '1948-02-11', email };
  const booking = await bookFresh(page.request, patient);
  await page.clock.install();
  await page.goto(`/appointments/${booking.key}?kioskMode=true`);
  await expect(page).toHaveURL(/\/authentication\?/);
  await signIn(page, patient);
  await expect(page).toHaveURL(new RegExp(`/appointments/${booking.key}`));
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  // The consent notice stays open: the patient walked away from it, and the inactivity dialog opens above it.
  await expect(page.getByRole('dialog', { name: t('appointment.consent.notificationTitle') })).toBeVisible();
  await pauseClockAfterActivity(page);
  return booking.key;
}

test('an idle kiosk counts down, Cancel and activity keep the session, and the end of the countdown wipes it', async ({ page }) => {
  const key = await signedInAtKiosk(page, 'idle.cancel@example.com');

  await page.clock.fastForward(IDLE_MS);
  const dialog = inactivityDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(t('message.inactivity_text', { count: 10 }));
  await expect(dialog.getByRole('button', { name: t('kiosk.stillHere') })).toBeFocused();

  await page.clock.fastForward(3_000);
  await expect(dialog).toContainText(t('message.inactivity_text', { count: 7 }));
  await dialog.getByRole('button', { name: t('kiosk.stillHere') }).click();
  await expect(dialog).toBeHidden();

  // Activity during a later countdown dismisses it as well.
  await page.clock.fastForward(IDLE_MS);
  await expect(dialog).toBeVisible();
  await page.mouse.move(200, 300);
  await page.mouse.move(260, 340);
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/appointments/${key}`));

  // Nobody comes back: the countdown runs out.
  await page.evaluate(() => {
    sessionStorage.setItem('patient.draft', 'left behind');
    localStorage.setItem('patient.note', 'left behind');
    document.cookie = 'patientCrumb=1; path=/';
  });
  await page.clock.fastForward(IDLE_MS);
  await expect(dialog).toBeVisible();
  // axe runs on timers of its own: the clock runs at real speed again from here (axe takes a
  // second or two of the 10 s countdown).
  await page.clock.resume();
  await expectNoSeriousA11yViolations(page, 'kiosk inactivity dialog');
  await page.clock.fastForward(COUNTDOWN_MS);
  await expect(page).toHaveURL(/\/kiosk\?kioskMode=true$/);

  const left = await page.evaluate(() => ({
    local: Object.keys(localStorage),
    session: Object.keys(sessionStorage),
    cookies: document.cookie,
  }));
  expect(left.local).toEqual([]);
  expect(left.session.filter((name) => name !== 'portal.kioskMode')).toEqual([]);
  expect(left.cookies).not.toContain('patientCrumb');

  // The server ended the session too, and Back shows no patient data.
  const summary = await page.evaluate(async (bookingKey) => (await fetch(`/api/appointments/${bookingKey}`)).status, key);
  expect(summary).toBe(401);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeHidden();
  await expect(page.getByText('Liam Journey')).toBeHidden();
});

test('at kiosk size the inactivity dialog is large, I’m still here comes first, and Start again ends the session at once', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1080, height: 1920 });
  await signedInAtKiosk(page, 'idle.home@example.com');
  await page.clock.fastForward(IDLE_MS);
  const dialog = inactivityDialog(page);
  await expect(dialog).toBeVisible();
  const stillHere = dialog.getByRole('button', { name: t('kiosk.stillHere') });
  const startAgain = dialog.getByRole('button', { name: t('kiosk.startAgain') });
  await expect(stillHere).toBeFocused();
  // I'm still here is the primary action and the first of the two; both are big enough for a thumb.
  await expect(stillHere).not.toHaveClass(/pp-button-secondary/);
  await expect(startAgain).toHaveClass(/pp-button-secondary/);
  const [dialogBox, stillBox, againBox] = await Promise.all([dialog.boundingBox(), stillHere.boundingBox(), startAgain.boundingBox()]);
  expect(dialogBox?.width ?? 0).toBeGreaterThanOrEqual(800);
  for (const box of [stillBox, againBox]) expect(box?.height ?? 0).toBeGreaterThanOrEqual(96);
  expect(stillBox?.x ?? 0).toBeLessThan(againBox?.x ?? 0);
  // The countdown is said politely (a status), once more at 5 seconds, not every second.
  await expect(dialog.getByRole('status')).toHaveText('');
  await page.clock.fastForward(5_000);
  await expect(dialog.getByRole('status')).toHaveText(t('message.inactivity_text', { count: 5 }));
  // axe needs real timers: the last 5 seconds run at real speed from here.
  await page.clock.resume();
  await expectNoSeriousA11yViolations(page, 'kiosk inactivity dialog at 1080x1920');
  await startAgain.click();
  await expect(page).toHaveURL(/\/kiosk\?kioskMode=true$/);
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
});
