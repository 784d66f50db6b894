import type { Browser, Page } from '@playwright/test';
import { t } from './i18n';
import { DEMO_KIOSK_ADMIN, expectStaffMenu, signInThroughPopup } from './staff';

/** What POST /api/staff/kiosks answers: the kiosk and its one-time enrollment code. */
export interface NewKiosk {
  kiosk: { id: string; name: string };
  code: string;
}

/** A kiosk administrator's page, signed in through the identity provider's popup. */
export async function kioskAdmin(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
  await page.goto('/about');
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('nav.login') }).click(), DEMO_KIOSK_ADMIN);
  await expectStaffMenu(page, DEMO_KIOSK_ADMIN.username);
  return page;
}

/** A same-origin staff call from the administrator's page (its session cookie, the CSRF header). */
export async function staffPost<T>(page: Page, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'X-Requested-With': 'XMLHttpRequest', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    { path, body },
  );
}
