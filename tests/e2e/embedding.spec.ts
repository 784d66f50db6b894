import type { Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { EMBED_PARENT_PORT, OTHER_PARENT_PORT, startParentSite } from './helpers/servers';

/**
 * The portal inside a provider's own website: the /iframe routes use the embedded layout, the
 * configured provider origin may frame it, and any other site is refused by frame-ancestors.
 */

const PROVIDER = 'Harbour & Range Radiology';

test('/iframe/select-region is the embedded start page, without the site footer', async ({ page }) => {
  await page.goto('/iframe/select-region');
  await expect(page.getByRole('heading', { level: 1, name: t('selectRegion.title', { name: PROVIDER }) })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/iframe/select-region');
});

test('/iframe/about keeps its links inside the embedded area', async ({ page }) => {
  await page.goto('/iframe/about');
  await expect(page.getByRole('heading', { level: 1, name: t('about.title') })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/iframe/about');
});

test('/iframe-test shows the portal in a frame on its own site', async ({ page }) => {
  await page.goto('/iframe-test');
  await expect(page.getByRole('heading', { level: 1, name: t('iframeTest.title') })).toBeVisible();
  const frame = page.frameLocator(`iframe[title="${t('iframeTest.frameTitle')}"]`);
  await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/iframe-test');
});

test.describe('framed by another site', () => {
  const servers: Server[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test("the provider's own site may frame the portal", async ({ page }) => {
    servers.push(await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', '/iframe/select-region'));
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    await expect(frame.getByRole('heading', { level: 1, name: t('selectRegion.title', { name: PROVIDER }) })).toBeVisible();
  });

  test('any other site is refused', async ({ page }) => {
    servers.push(await startParentSite(OTHER_PARENT_PORT, '127.0.0.1', '/iframe/select-region'));
    await page.goto(`http://127.0.0.1:${OTHER_PARENT_PORT}/`);
    await expect(page.getByRole('heading', { name: 'Provider site' })).toBeVisible();
    // Chromium replaces a frame refused by frame-ancestors with its error page: the portal never renders.
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    await page.waitForTimeout(0);
    await expect(frame.getByRole('heading', { name: t('selectRegion.title', { name: PROVIDER }) })).toHaveCount(0);
    const framed = page.frames().find((f) => f !== page.mainFrame());
    await expect.poll(() => framed?.url()).not.toContain('/iframe/select-region');
  });
});
