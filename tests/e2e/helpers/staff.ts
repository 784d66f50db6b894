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

/** Clicks what opens the sign-in popup and signs in there; resolves once the popup has closed. */
export async function signInThroughPopup(page: Page, open: () => Promise<void>, account: DemoAccount): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await open();
  const popup = await popupOpened;
  await signInAtProvider(popup, account);
  await popup.waitForEvent('close', { timeout: 30_000 }).catch(async (error: unknown) => {
    throw new Error(
      `the sign-in popup stayed open at ${popup.url()}: ${(await popup.textContent('body').catch(() => ''))?.slice(0, 300)}`,
      {
        cause: error,
      },
    );
  });
}

/** The HTTP status of a same-origin call made by the page (its cookies included). */
export async function statusOf(page: Page, path: string, init: RequestInit = {}): Promise<number> {
  return page.evaluate(async ({ path, init }) => (await fetch(path, init)).status, { path, init });
}

/** MSAL's cached accounts and tokens in local storage (their keys name the credential type). */
export async function msalCredentials(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage).filter((key) => /accesstoken|refreshtoken|idtoken|account/i.test(key) && !key.startsWith('portal.')),
  );
}

export async function expectStaffMenu(page: Page, username: string): Promise<void> {
  await expect(page.getByRole('button', { name: `Account: ${username}` })).toBeVisible({ timeout: 20_000 });
}
