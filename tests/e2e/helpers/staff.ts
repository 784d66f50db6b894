import { expect, type Page } from '@playwright/test';

/** The demo identity provider's accounts (resources/demo-provider/identity-accounts.json, docs/identity.md). */
export const DEMO_STAFF = { username: 'sam.staff@demo-radiology.example', password: 'demo-staff-2026' };
export const DEMO_ADMIN = { username: 'alex.admin@demo-radiology.example', password: 'demo-admin-2026' };
export const DEMO_REFERRER = { username: 'dr.riley.referrer@harbour-medical.example', password: 'demo-referrer-2026' };
export const DEMO_KIOSK_ADMIN = { username: 'kim.kiosk-it@demo-radiology.example', password: 'demo-kiosk-it-2026' };

export type DemoAccount = typeof DEMO_STAFF;

/** Fills the identity provider's own sign-in form (src-server/dev-identity/pages.ts) in that window. */
export async function signInAtProvider(window: Page, account: DemoAccount): Promise<void> {
  await window.getByLabel('Username').fill(account.username);
  await window.getByLabel('Password').fill(account.password);
  await window.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Clicks what opens the sign-in popup and signs in there; resolves once the popup is gone. The
 * popup closes itself; where the browser does not let it (it lost its opener on the way through
 * the provider), it must say the sign-in is done, and the person closes it.
 */
export async function signInThroughPopup(page: Page, open: () => Promise<void>, account: DemoAccount): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await open();
  const popup = await popupOpened;
  // Listen before signing in: the popup can close while the click still waits for its navigation,
  // and a 'close' that already happened would never come again.
  const closing = popup
    .waitForEvent('close', { timeout: 30_000 })
    .then(() => true)
    .catch(() => false);
  await signInAtProvider(popup, account);
  const closed = popup.isClosed() || (await closing);
  if (closed) return;
  expect(new URL(popup.url()).pathname).toBe('/auth/redirect');
  await expect(popup.getByText('You are signed in. You can close this window.')).toBeVisible();
  await popup.close();
}

/** The HTTP status of a same-origin call made by the page (its cookies included). */
export async function statusOf(page: Page, path: string, init: RequestInit = {}): Promise<number> {
  return page.evaluate(async ({ path, init }) => (await fetch(path, init)).status, { path, init });
}

/**
 * The browser client's cached accounts and tokens in local storage: MSAL's (their keys name the
 * credential type) or, with the demo provider inside the portal, oidc-client-ts's (`oidc.user:`).
 */
export async function msalCredentials(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage).filter(
      (key) => (/accesstoken|refreshtoken|idtoken|account/i.test(key) && !key.startsWith('portal.')) || key.startsWith('oidc.user:'),
    ),
  );
}

export async function expectStaffMenu(page: Page, username: string): Promise<void> {
  await expect(page.getByRole('button', { name: `Account: ${username}` })).toBeVisible({ timeout: 20_000 });
}
