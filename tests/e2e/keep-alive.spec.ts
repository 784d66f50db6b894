import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { DEMO_STAFF, expectStaffMenu, signInThroughPopup } from './helpers/staff';

/**
 * The keep-alive ping (docs/rules/staff-access.md#keep-alive): a signed-in page that
 * stays open pings its session every keepAliveIntervalSeconds (the demo provider: 600 s) while it is
 * visible, and not while the tab is hidden. That a ping keeps the session past the 30-minute idle
 * timeout is proven on the server's clock (tests/server/modules/*-access/routes.keep-alive.test.ts).
 */

const KEEP_ALIVE = '/api/staff-access/keep-alive';

/** Marks the tab hidden or visible as the browser does when another tab comes to the front. */
async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { value, configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, state);
}

test('a signed-in staff page pings every 10 minutes while visible, and not while hidden', async ({ page }) => {
  test.setTimeout(120_000);
  await page.clock.install();
  const pings: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === KEEP_ALIVE && response.request().method() === 'POST') pings.push(response.status());
  });
  await page.goto('/about');
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('nav.login') }).click(), DEMO_STAFF);
  await expectStaffMenu(page, DEMO_STAFF.username);
  await expectNoSeriousA11yViolations(page, '/about signed in');
  expect(pings).toEqual([]);

  await page.clock.fastForward('10:00');
  await expect.poll(() => pings).toEqual([204]);
  await page.clock.fastForward('10:00');
  await expect.poll(() => pings).toEqual([204, 204]);

  // Hidden: nothing, however long; visible again and overdue: at once.
  await setVisibility(page, 'hidden');
  await page.clock.fastForward('25:00');
  await page.waitForTimeout(500);
  expect(pings).toHaveLength(2);
  await setVisibility(page, 'visible');
  await expect.poll(() => pings).toEqual([204, 204, 204]);
  await expectStaffMenu(page, DEMO_STAFF.username);
});

test('no ping for a visitor who is not signed in', async ({ page }) => {
  await page.clock.install();
  const pings: string[] = [];
  page.on('request', (request) => {
    if (/\/keep-alive$/.test(new URL(request.url()).pathname)) pings.push(request.url());
  });
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.clock.fastForward('30:00');
  await page.waitForTimeout(500);
  expect(pings).toEqual([]);
});
