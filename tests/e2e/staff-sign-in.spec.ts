import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { codeFromMail, enterDateOfBirth } from './helpers/sign-in';
import { t } from './helpers/i18n';
import {
  DEMO_ADMIN,
  DEMO_KIOSK_ADMIN,
  DEMO_REFERRER,
  DEMO_STAFF,
  expectStaffMenu,
  msalCredentials,
  signInAtProvider,
  signInThroughPopup,
  statusOf,
} from './helpers/staff';

/**
 * Staff sign-in through the identity provider (docs/identity.md): MSAL in the page
 * against the local demo OpenID Connect provider that `npm start` runs beside the portal (https
 * with a certificate of its own, hence ignoreHTTPSErrors), and the portal's own staff session.
 */
test.use({ ignoreHTTPSErrors: true });

/** A demo booking no other journey signs in to (resources/demo-provider/appointments.json). */
const ZOE = { key: 'tbwfMKoY8baWy3_RDUOeKQ', dateOfBirth: '1949-04-26', email: 'zoe.fictitious@example.com' };
/** The booking whose confirmation the preview renders (read only). */
const PREVIEWED_KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
/** Values for the path parameters of staff routes; the session check comes before any lookup. */
const SAMPLE_PARAMS: Record<string, string> = { bookingKey: ZOE.key, id: '1', slug: 'sample' };

test('staff sign in with the popup, are recognised silently later, and log out', async ({ page, context }) => {
  await page.goto('/about');
  const login = page.getByRole('button', { name: t('nav.login') });
  await expect(login).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/about (staff login button)');

  await signInThroughPopup(page, () => login.click(), DEMO_STAFF);
  await expectStaffMenu(page, DEMO_STAFF.username);
  expect(await statusOf(page, '/api/staff-access/me')).toBe(200);
  expect(await msalCredentials(page)).not.toEqual([]);
  const menuButton = page.getByRole('button', { name: `Account: ${DEMO_STAFF.username}` });
  await menuButton.click();
  await expect(page.getByRole('link', { name: t('staff.tools.staffHome.name') })).toBeVisible();
  // The admin panel is an administrator's tool only.
  await expect(page.getByRole('link', { name: t('staff.tools.adminPanel.name') })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/about (staff menu open)');
  await page.keyboard.press('Escape');

  // The portal's session ends (cookie gone) but MSAL's cache stays: the image-viewer sign-in
  // gets a token silently, no window opens.
  await context.clearCookies({ name: '__Host-portal_staff_session' });
  let popups = 0;
  page.on('popup', () => (popups += 1));
  await page.goto('/image-viewer-access');
  await expect(page.getByText(/You are signed in as sam\.staff@demo-radiology\.example/)).toBeVisible({ timeout: 20_000 });
  expect(popups).toBe(0);
  expect(await statusOf(page, '/api/staff-access/me')).toBe(200);
  await expectNoSeriousA11yViolations(page, '/image-viewer-access (signed in)');

  // Logout: the server session is dead and MSAL's cache is cleared.
  await page.getByRole('button', { name: `Account: ${DEMO_STAFF.username}` }).click();
  await page.getByRole('button', { name: t('staff.menu.logout') }).click();
  await expect(page.getByRole('button', { name: t('nav.login') })).toBeVisible();
  expect(await statusOf(page, '/api/staff-access/me')).toBe(401);
  expect(await msalCredentials(page)).toEqual([]);
});

test('a blocked popup continues as a full-page redirect and comes back signed in', async ({ page }) => {
  // What a browser's popup blocker does: window.open answers null.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto('/contact');
  await page.getByRole('button', { name: t('nav.login') }).click();
  // The whole page goes to the identity provider, then back to the page the sign-in started on.
  await expect(page.getByLabel('Username')).toBeVisible({ timeout: 20_000 });
  await signInAtProvider(page, DEMO_ADMIN);
  await expect(page).toHaveURL(/\/contact$/, { timeout: 20_000 });
  await expectStaffMenu(page, DEMO_ADMIN.username);
  expect(await statusOf(page, '/api/staff-access/me')).toBe(200);
});

test('a tampered token is refused: no session, and the image-viewer sign-in says so', async ({ page }) => {
  // The token MSAL hands to the portal is changed on its way (one character of its claims).
  await page.route('**/api/staff-access/session', async (route) => {
    const { token } = route.request().postDataJSON() as { token: string };
    const [header, payload, signature] = token.split('.');
    const flipped = `${payload?.slice(0, 10)}${payload?.[10] === 'A' ? 'B' : 'A'}${payload?.slice(11)}`;
    await route.continue({ postData: JSON.stringify({ token: `${header}.${flipped}.${signature}` }) });
  });
  await page.goto('/image-viewer-access');
  const signIn = page.getByRole('button', { name: t('staff.imageViewerAccess.signIn') });
  await expect(signIn).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, '/image-viewer-access (sign in)');
  await signInThroughPopup(page, () => signIn.click(), DEMO_STAFF);
  await expect(page.getByRole('alert')).toContainText(t('message.error_check_images_authorization'));
  expect(await statusOf(page, '/api/staff-access/me')).toBe(401);
  await expectNoSeriousA11yViolations(page, '/image-viewer-access (refused)');
});

test('an account without image access signs in but is told it may not view images', async ({ page }) => {
  await page.goto('/image-viewer-access');
  const signIn = page.getByRole('button', { name: t('staff.imageViewerAccess.signIn') });
  await expect(signIn).toBeVisible({ timeout: 20_000 });
  await signInThroughPopup(page, () => signIn.click(), DEMO_KIOSK_ADMIN);
  await expect(page.getByRole('alert')).toContainText(t('message.error_check_images_authorization'));
});

test("a patient's session reaches no staff endpoint", async ({ page }) => {
  // A patient signed in to their appointment (date of birth and the e-mailed code).
  await page.goto(`/authentication?returnUrl=%2Fappointments%2F${ZOE.key}&bookingKey=${ZOE.key}&type=APPOINTMENT`);
  await enterDateOfBirth(page, ZOE.dateOfBirth);
  await page.getByLabel(t('authentication.code.label')).fill(await codeFromMail(ZOE.email));
  await page.getByRole('button', { name: t('authentication.code.verify') }).click();
  await expect(page).toHaveURL(new RegExp(`/appointments/${ZOE.key}$`));

  // The staff routes, as the server declares them (each operation's x-access in the OpenAPI document).
  const document = (await (await page.request.get('/api/docs/json')).json()) as {
    paths: Record<string, Record<string, { 'x-access'?: { kind?: string; patientForbidden?: boolean } }>>;
  };
  const staffRoutes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation['x-access']?.kind === 'staff-session')
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, access: operation['x-access'] })),
  );
  expect(staffRoutes.length).toBeGreaterThan(10);
  for (const { method, path, access } of staffRoutes) {
    const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => SAMPLE_PARAMS[name] ?? 'sample');
    const status = await statusOf(
      page,
      url,
      method === 'GET' ? {} : { method, headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' }, body: '{}' },
    );
    // Routes that tell a signed-in patient "not for you" (deleting a document) answer 403; the rest 401.
    const patientForbidden = access?.patientForbidden === true;
    expect(status, `${method} ${url}`).toBe(patientForbidden ? 403 : 401);
  }
});

test('staff preview a real e-mail after signing in on the page; a referring doctor is refused (403)', async ({ page }) => {
  const preview = `/preview-email?template=booking_confirmation&lang=en-AU&referenceId=${PREVIEWED_KEY}`;
  await page.goto(preview);
  await expect(page.getByRole('alert')).toContainText(t('previewEmail.signInNeeded'));
  await expectNoSeriousA11yViolations(page, '/preview-email (sign-in needed)');

  // A referring doctor signs in there: the server refuses the staff action.
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('previewEmail.signIn') }).click(), DEMO_REFERRER);
  await expectStaffMenu(page, DEMO_REFERRER.username);
  await expect(page.getByRole('alert')).toContainText('Your account may not do that.');
  expect(
    await statusOf(page, `/api/notifications/preview_translated_email?template=booking_confirmation&lang=en&referenceId=${PREVIEWED_KEY}`),
  ).toBe(403);
  await page.getByRole('button', { name: `Account: ${DEMO_REFERRER.username}` }).click();
  await page.getByRole('button', { name: t('staff.menu.logout') }).click();
  await expect(page.getByRole('button', { name: t('nav.login') })).toBeVisible();

  // The next person at this computer: the provider's own session is still the referrer's, yet
  // after the logout it asks for credentials again, so staff sign in as themselves.
  // Staff see the mail: subject, the HTML in its sandboxed frame, the text.
  await page.goto(preview);
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('previewEmail.signIn') }).click(), DEMO_STAFF);
  await expect(page.getByTestId('preview-email-subject')).toContainText(/./);
  await expect(page.getByTestId('preview-email-text')).toContainText(`/appointments/${PREVIEWED_KEY}`);
  const frame = page.frameLocator('iframe.pp-preview-email-frame');
  await expect(frame.locator('body')).toContainText(/Dear/);
  await expectNoSeriousA11yViolations(page, '/preview-email (preview)', { exclude: ['iframe.pp-preview-email-frame'] });
});

// A newcomer opens the portal as http://localhost or http://127.0.0.1, whichever PUBLIC_URL says
// (docs/identity.md#local-identity-provider): the demo provider lives on the portal's own origin (/dev/idp), so there is no
// certificate to accept first and the sign-in comes back to the address it started from.
for (const host of ['localhost', '127.0.0.1']) {
  test(`staff sign in from http://${host} with no certificate step and land back there`, async ({ page, baseURL }) => {
    const origin = `http://${host}:${new URL(baseURL ?? '').port}`;
    await page.goto(`${origin}/about`);
    const popupOpened = page.waitForEvent('popup');
    await signInThroughPopup(
      page,
      async () => {
        await page.getByRole('button', { name: t('nav.login') }).click();
        // The provider's sign-in page is on the portal's own origin, over plain http.
        const popup = await popupOpened;
        await popup.getByLabel('Username').waitFor();
        expect(new URL(popup.url()).origin).toBe(origin);
        expect(new URL(popup.url()).pathname).toMatch(/^\/dev\/idp\/interaction\//);
      },
      DEMO_STAFF,
    );
    await expectStaffMenu(page, DEMO_STAFF.username);
    expect(new URL(page.url()).origin).toBe(origin);
    expect(await statusOf(page, '/api/staff-access/me')).toBe(200);
    await expectNoSeriousA11yViolations(page, `${origin}/about (signed in)`);
  });
}
