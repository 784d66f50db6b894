import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';

/**
 * The spec's kiosk routes (docs/rules/kiosk.md#the-kiosk-shell): /appointments/{bookingKey}/kiosk turns
 * kiosk mode on (the kiosk frame, no website chrome, kept for the browser session), and the
 * check-in flow under /iframe stays in the /iframe layout instead of leaving it.
 */

const DEMO_KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';

test("/appointments/{key}/kiosk opens the appointment in the kiosk's frame, and Start again goes to the kiosk home", async ({ page }) => {
  await page.setViewportSize({ width: 1080, height: 1920 });
  await page.goto(`/appointments/${DEMO_KEY}/kiosk`);
  await expect(page.locator('.pp-kiosk-shell')).toBeVisible({ timeout: 20_000 });
  const startAgain = page.getByRole('button', { name: t('kiosk.shell.startAgain') });
  await expect(startAgain).toBeVisible();
  // The website's own chrome (its navigation and footer) is not drawn in kiosk mode.
  await expect(page.locator('.pp-kiosk-shell').getByRole('link', { name: t('nav.about') })).toHaveCount(0);
  await expect(page.getByRole('contentinfo').filter({ hasText: t('nav.privacy') })).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('portal.kioskMode'))).toBe('true');
  // The appointment asks who is there, inside the kiosk's frame.
  await expect(
    page
      .locator('.pp-kiosk-main')
      .getByLabel(/date of birth/i)
      .first(),
  ).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoSeriousA11yViolations(page, '/appointments/{key}/kiosk (1080x1920)');

  await startAgain.click();
  await expect(page).toHaveURL(/\/kiosk\?kioskMode=true$/, { timeout: 20_000 });
});

test('/iframe/check-in without a check-in under way goes to the kiosk home inside /iframe, not out of it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1024 });
  await page.goto('/iframe/check-in?kioskMode=true');
  await expect(page).toHaveURL(/\/iframe\/kiosk\?kioskMode=true$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, '/iframe/kiosk (1280x1024)');
});
