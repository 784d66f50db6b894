import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { EMBED_PARENT_PORT } from './helpers/servers';

/**
 * The shell every visitor sees: the title rule in the served HTML, the static pages,
 * landmarks and keyboard entry, the phone menu, and clear answers for unknown pages and API paths.
 */

const PROVIDER = 'Harbour & Range Radiology';
const TITLE = `${PROVIDER} | Book your scan online`;

test('the served HTML carries the title and description before any script runs', async ({ request }) => {
  const response = await request.get('/about');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<title>Harbour &amp; Range Radiology | Book your scan online</title>');
  expect(html).toMatch(/<meta name="description" content="[^"]+"/);
  const headers = response.headers();
  // Only the provider's own sites (EMBED_ORIGINS, set by playwright.config.ts) may frame the portal.
  expect(headers['content-security-policy']).toMatch(
    new RegExp(`frame-ancestors 'self'[^;]* http://127\\.0\\.0\\.1:${EMBED_PARENT_PORT}(;|$)`),
  );
  expect(headers['content-security-policy']).not.toMatch(/frame-ancestors[^;]*\*/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
  expect(headers['strict-transport-security']).toContain('max-age=');
});

test('the home page has the title, a skip link, the navigation and a footer', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(TITLE);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText(PROVIDER);
  // The first Tab reaches the skip link, and following it moves focus to the main content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: t('app.skipToContent') });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'home');
});

for (const [path, headingKey] of [
  ['/about', 'about.title'],
  ['/contact', 'contact.title'],
  ['/terms', 'terms.title'],
  ['/privacy', 'privacy.title'],
] as const) {
  test(`${path} shows its heading and content from the configuration`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: t(headingKey) })).toBeVisible();
    await expect(page).toHaveTitle(TITLE);
    await expectNoSeriousA11yViolations(page, path);
  });
}

test('the contact page lists the clinics with their addresses from the server', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: t('contact.clinics') })).toBeVisible();
  // Every one of the demo provider's 9 clinics has a phone link (the list loads after the page).
  await expect(page.locator('a[href^="tel:"]').nth(8)).toBeVisible();
});

test('the footer links move between the static pages', async ({ page }) => {
  await page.goto('/about');
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: t('footer.contact') })
    .click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { level: 1, name: t('contact.title') })).toBeVisible();
});

test('an unknown page says so and offers the way home', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(200); // the single-page app answers; the page itself says not found
  await expect(page.getByRole('heading', { level: 1, name: t('notFound.title') })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'not found');
});

test('configured HTML is sanitised again in the browser, with its own sanitiser: nothing that runs survives', async ({ page }) => {
  // As if the server's sanitiser had let everything through: the served configuration carries it.
  const payload =
    '<p>Closed <strong>today</strong> <a href="https://example.com/hours" target="_blank">hours</a>' +
    '<img src="/x.png" onerror="window.__xss=1"><script>window.__xss=2</script><a href="javascript:window.__xss=3">js</a>' +
    '<b onclick="window.__xss=4" style="color:red">bold</b><svg><a href="javascript:window.__xss=5">svg</a></svg></p>';
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const served = JSON.stringify(payload).replace(/</g, '\\u003c');
      const html = (await response.text()).replace(/"bannerHtml":"(?:[^"\\]|\\.)*"/, () => `"bannerHtml":${served}`);
      await route.fulfill({ response, body: html });
    },
  );
  const dompurify: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/sanitize-[^/]*\.js$/.test(request.url())) dompurify.push(request.url());
  });
  await page.goto('/');
  const banner = page.locator('.pp-banner-content');
  await expect(banner).toContainText('Closed today');
  // Chromium has Element.setHTML: its sanitiser is used and DOMPurify is never downloaded.
  expect(await page.evaluate(() => 'setHTML' in Element.prototype)).toBe(true);
  expect(dompurify).toEqual([]);
  expect(await banner.innerHTML()).toBe(
    '<p>Closed <strong>today</strong> <a href="https://example.com/hours">hours</a><a>js</a><b>bold</b></p>',
  );
  await banner.getByText('js').click();
  await banner.getByText('bold').click();
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
});

test('an unknown API path answers 404 with a JSON error body, not the web app', async ({ request }) => {
  const response = await request.get('/api/no-such-operation');
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/json');
  const body = (await response.json()) as { code: string; message: string };
  expect(body.code).toBe('route_not_found');
  expect(body.message).toContain('GET');
});

test('the health endpoint and the OpenAPI document answer', async ({ request }) => {
  const health = await request.get('/api/health');
  expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok' });
  const docs = await request.get('/api/docs/json');
  expect(docs.status()).toBe(200);
  const document = (await docs.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toMatch(/^3\./);
  expect(Object.keys(document.paths)).toContain('/api/config/contact');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('the menu opens, lists the pages and navigates', async ({ page }) => {
    await page.goto('/about');
    const menuButton = page.getByRole('button', { name: t('nav.menu') });
    await expect(menuButton).toBeVisible();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('list', { name: t('nav.menuLabel') });
    await expect(menu.getByRole('link', { name: t('nav.privacy') })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'phone menu open');
    await menu.getByRole('link', { name: t('nav.terms') }).click();
    await expect(page.getByRole('heading', { level: 1, name: t('terms.title') })).toBeVisible();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  });
});

/** Where the chrome's parts are drawn: the banner's text, the logo, the header and its picture. */
async function chromeBoxes(page: Page): Promise<Record<string, { x: number; y: number; width: number; height: number } | null>> {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const element = document.querySelector(selector);
      if (!element) return null;
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
    };
    return {
      environment: box('.pp-environment-badge'),
      banner: box('.pp-banner'),
      bannerText: box('.pp-banner-content'),
      logo: box('.pp-header .pp-logo'),
      header: box('.pp-header'),
      headerImage: box('.pp-header-image'),
    };
  });
}

for (const size of [
  { name: 'phone', width: 390, height: 844, touch: true },
  { name: 'desktop', width: 1440, height: 900, touch: false },
  { name: 'short laptop (zoomed)', width: 1366, height: 768, touch: false },
]) {
  test(`the server's first paint is the app's chrome, in the same place (${size.name})`, async ({ browser }) => {
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height },
      hasTouch: size.touch,
      isMobile: size.touch,
    });
    try {
      // Before any script: what a phone on a slow network shows while the app downloads.
      const before = await context.newPage();
      await before.route('**/*.js', (route) => route.abort());
      await before.goto('/about');
      await expect(before.locator('#root > .pp-first-paint .pp-banner')).toBeVisible();
      await expect(before.locator('.pp-first-paint .pp-logo')).toHaveJSProperty('complete', true);
      const painted = await chromeBoxes(before);
      const colours = (page: Page) =>
        page.evaluate(() => ({
          header: getComputedStyle(document.querySelector('.pp-header') as Element).backgroundColor,
          page: getComputedStyle(document.body).backgroundColor,
          font: getComputedStyle(document.body).fontFamily,
        }));
      const paintedColours = await colours(before);
      // The provider's theme, not the stylesheet's defaults (white header).
      expect(paintedColours.header).not.toBe('rgb(255, 255, 255)');

      const after = await context.newPage();
      await after.goto('/about');
      await expect(after.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(after.locator('.pp-first-paint')).toHaveCount(0);
      // One header, one banner: the app replaced the first paint rather than adding to it.
      await expect(after.locator('.pp-header')).toHaveCount(1);
      await expect(after.getByRole('region', { name: t('banner.label') })).toHaveCount(1);
      const app = await chromeBoxes(after);
      expect(await colours(after)).toEqual(paintedColours);
      for (const [part, box] of Object.entries(painted)) {
        expect(box, `${part} in the first paint`).not.toBeNull();
        const drawn = app[part];
        expect(drawn, `${part} in the app`).not.toBeNull();
        // The environment strip's words come with the app: its line, not its width, is kept.
        const keys = part === 'environment' ? (['y', 'height'] as const) : (['x', 'y', 'width', 'height'] as const);
        for (const key of keys) {
          expect(
            Math.abs((drawn?.[key] ?? 0) - (box?.[key] ?? 0)),
            `${part} ${key}: first paint ${box?.[key]}, app ${drawn?.[key]}`,
          ).toBeLessThanOrEqual(1);
        }
      }
      await expectNoSeriousA11yViolations(after, `about after the first paint (${size.name})`);
    } finally {
      await context.close();
    }
  });
}

test('the booking home loads without moving what is on screen, on a slow phone', async ({ browser }) => {
  // Lighthouse's phone: its size and a CPU four times slower, where the exam list once came a
  // moment after the page and pushed "Your exams" out of view (CLS 0.064).
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { layoutShifts: shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/');
    await expect(page.locator('[data-booking-ready="true"]')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('li[data-exam]').first()).toBeVisible();
    await page.waitForTimeout(1_500);
    expect(await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts)).toEqual([]);
  } finally {
    await context.close();
  }
});
