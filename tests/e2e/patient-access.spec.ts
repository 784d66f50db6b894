import type { Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { EMBED_PARENT_PORT, startParentSite } from './helpers/servers';
import { codeFromMail, enterDateOfBirth } from './helpers/sign-in';

/**
 * Patient sign-in against the real server and the demo provider (otpRequired is on):
 * date of birth, then the one-time password read from the test SMTP server; the lock-out after
 * too many wrong dates of birth; the same sign-in inside /iframe.
 * Booking keys and dates of birth come from resources/demo-provider/appointments.json and
 * self-service.json; each test
 * uses its own booking so the per-key attempt limit of one does not touch another.
 */

const LIAM = { key: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };
const AMELIA = { key: 'RTZZ7AsePVS1c6abT-l4BA', dateOfBirth: '1968-11-02', email: 'amelia.sample@example.com' };
const GRACE = { key: 'mNp2p1IOmqpDiRsoCT3WpA', dateOfBirth: '1985-07-21' };
/** resources/demo-provider/self-service.json */
const REQUEST = { key: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23', email: 'chloe.request@example.com' };

const signInUrl = (key: string, prefix = '') =>
  `${prefix}/authentication?returnUrl=${encodeURIComponent(`${prefix}/appointments/${key}`)}&bookingKey=${key}&type=APPOINTMENT`;

test('a patient signs in to an appointment with the date of birth and the e-mailed code', async ({ page }) => {
  // The link from the confirmation mail: without a session the appointment page sends the
  // patient to sign in, with the appointment as the return URL.
  await page.goto(`/appointments/${LIAM.key}`);
  await expect(page).toHaveURL(
    `/authentication?returnUrl=${encodeURIComponent(`/appointments/${LIAM.key}`)}&bookingKey=${LIAM.key}&type=APPOINTMENT`,
  );
  await expect(page.getByRole('heading', { level: 1, name: t('authentication.title') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/authentication (date of birth)');

  // Problems are shown before anything is sent, and the focus goes to the first one.
  await page.getByLabel(t('authentication.fields.contactNumber')).fill('04915700061');
  await page.getByRole('button', { name: t('authentication.submit') }).click();
  await expect(page.getByText(t('authentication.problems.dateOfBirthRequired'))).toBeVisible();
  await expect(page.getByText(t('authentication.problems.contactNumber'))).toBeVisible();
  await expect(page.getByLabel(t('authentication.fields.dateOfBirth'))).toBeFocused();
  await expectNoSeriousA11yViolations(page, '/authentication (problems)');
  await page.getByLabel(t('authentication.fields.contactNumber')).fill('');

  await enterDateOfBirth(page, LIAM.dateOfBirth);
  const codeInput = page.getByLabel(t('authentication.code.label'));
  await expect(codeInput).toBeFocused();
  await expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeInput).toHaveAttribute('inputmode', 'numeric');
  const resend = page.getByRole('button', { name: t('authentication.code.resend') });
  await expect(resend).toBeDisabled();
  await expect(page.getByText(/You can ask for a new code in \d+ seconds\./)).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/authentication (code)');

  const code = await codeFromMail(LIAM.email);

  // A wrong code keeps the step with the OTP error.
  await codeInput.fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: t('authentication.code.verify') }).click();
  await expect(page.getByRole('alert')).toHaveText(t('message.authentication_otp_error'));
  await expect(resend).toBeEnabled({ timeout: 10_000 });

  await codeInput.fill(code);
  await page.getByRole('button', { name: t('authentication.code.verify') }).click();
  await expect(page).toHaveURL(new RegExp(`/appointments/${LIAM.key}$`));
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  await expect(page.getByText('MRI knee').first()).toBeVisible();

  // The browser now holds a real session for that booking, and only that one.
  const status = (key: string) =>
    page.evaluate(async (k) => (await fetch(`/api/patient-access/session?bookingKey=${k}&type=APPOINTMENT`)).status, key);
  expect(await status(LIAM.key)).toBe(200);
  expect(await status(AMELIA.key)).toBe(401);

  // Opening the sign-in link again goes straight on.
  await page.goto(signInUrl(LIAM.key));
  await expect(page).toHaveURL(new RegExp(`/appointments/${LIAM.key}$`));
});

test('a booking request asks for the e-mailed code too when the provider requires one', async ({ page }) => {
  await page.goto(`/booking-requests/${REQUEST.key}`);
  await expect(page).toHaveURL(/\/authentication\?returnUrl=%2Fbooking-requests%2F.*&type=BOOKING_REQUEST$/);
  await enterDateOfBirth(page, REQUEST.dateOfBirth);
  // The date of birth alone does not open it.
  await expect(page).toHaveURL(/\/authentication\?/);
  await page.getByLabel(t('authentication.code.label')).fill(await codeFromMail(REQUEST.email));
  await page.getByRole('button', { name: t('authentication.code.verify') }).click();
  await expect(page).toHaveURL(new RegExp(`/booking-requests/${REQUEST.key}$`));
  await expect(page.getByRole('heading', { level: 1, name: t('bookingRequest.title') })).toBeVisible();

  // The session cookie is the __Host- one: Secure, HttpOnly, Path=/, no Domain, partitioned for frames.
  const cookies = (await page.context().cookies()).filter((cookie) => cookie.name.includes('portal_session'));
  expect(cookies).toHaveLength(1);
  expect(cookies[0]).toMatchObject({ name: '__Host-portal_session', path: '/', secure: true, httpOnly: true, sameSite: 'None' });
});

test('too many wrong dates of birth lock the booking: /deny with the max-attempts message (phone size)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(signInUrl(GRACE.key));
  const dateOfBirth = page.getByLabel(t('authentication.fields.dateOfBirth'));
  await expect(dateOfBirth).toBeVisible();
  let attempts = 0;
  while (!page.url().includes('/deny') && attempts < 10) {
    attempts += 1;
    await dateOfBirth.fill('1985-07-22');
    await page.getByRole('button', { name: t('authentication.submit') }).click();
    await expect(page.getByRole('alert').or(page.getByRole('heading', { level: 1, name: t('deny.title') }))).toBeVisible();
    if (attempts === 1) await expectNoSeriousA11yViolations(page, '/authentication (wrong date of birth, 375x667)');
  }
  await expect(page).toHaveURL(/\/deny\?maxAttempts=max_attempts_reached$/);
  expect(attempts).toBeLessThanOrEqual(6);
  await expect(page.getByText(t('message.max_attempts_reached'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/deny?maxAttempts');

  // The right date of birth no longer helps while the lock lasts.
  await page.goto(signInUrl(GRACE.key));
  await page.getByLabel(t('authentication.fields.dateOfBirth')).fill(GRACE.dateOfBirth);
  await page.getByRole('button', { name: t('authentication.submit') }).click();
  await expect(page).toHaveURL(/\/deny\?maxAttempts=/);
});

test('the sign-in works with the keyboard alone on a phone-sized /iframe page', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(signInUrl(LIAM.key, '/iframe'));
  await expect(page.getByRole('heading', { level: 1, name: t('authentication.title') })).toBeVisible();
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
  for (let presses = 0; presses < 40 && (await focusedId()) !== 'auth-dateOfBirth'; presses++) await page.keyboard.press('Tab');
  expect(await focusedId()).toBe('auth-dateOfBirth');
  // Chromium's date field takes the digits segment by segment (en-US order: month, day, year).
  await page.keyboard.type('03141991');
  await expect(page.getByLabel(t('authentication.fields.dateOfBirth'))).toHaveValue(LIAM.dateOfBirth);
  await page.keyboard.press('Enter');

  const channel = page.getByRole('radio', { name: t('authentication.channel.email') });
  const codeInput = page.getByLabel(t('authentication.code.label'));
  await expect(channel.or(codeInput)).toBeVisible();
  if (await channel.isVisible()) {
    await expect(channel).toBeFocused();
    await page.keyboard.press('Enter');
  }
  await expect(codeInput).toBeFocused();
  // Nothing of the form is cut off or needs sideways scrolling at 375 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, '/iframe/authentication (code, 375x667)');
  await page.keyboard.type(await codeFromMail(LIAM.email));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/iframe/appointments/${LIAM.key}$`));
});

test.describe('inside /iframe', () => {
  const servers: Server[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test("the same sign-in in a frame on the provider's site stays under /iframe", async ({ page }) => {
    servers.push(await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', signInUrl(AMELIA.key, '/iframe')));
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    await expect(frame.getByRole('heading', { level: 1, name: t('authentication.title') })).toBeVisible();
    await expect(frame.getByRole('contentinfo')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, '/iframe/authentication in the provider frame');

    await enterDateOfBirth(frame, AMELIA.dateOfBirth);
    await frame.getByLabel(t('authentication.code.label')).fill(await codeFromMail(AMELIA.email));
    await frame.getByRole('button', { name: t('authentication.code.verify') }).click();

    const framed = page.frames().find((f) => f !== page.mainFrame());
    await expect.poll(() => new URL(framed?.url() ?? 'http://x/').pathname).toBe(`/iframe/appointments/${AMELIA.key}`);
  });
});
