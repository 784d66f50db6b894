import { expect, test, type Page, type Request } from '@playwright/test';
import { ANALYTICS_COLLECTION_ORIGINS, ANALYTICS_SCRIPT_ORIGINS } from '../../src-server/platform/plugins/security-headers';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { portalOrigin } from './helpers/servers';

/**
 * Analytics with consent (docs/rules/analytics.md): with GA4 on, the visitor is
 * asked first; nothing goes to a Google host, and no Google script is in the page, before the
 * answer or after "Only necessary"; after "Allow analytics" gtag.js loads and the booking steps are
 * reported. axe on each page with the banner; a phone and a desk.
 *
 * The e2e server runs the demo provider with analytics off, and other specs share it. So the
 * provider's setting is changed per browser page, where nothing else can observe it: the served
 * page's embedded configuration gets analytics on with a test id, and its CSP the Google origins
 * exactly as the server adds them when analytics is on (the server side of that is proven by
 * tests/server/platform/plugins/security-headers.analytics.test.ts). We have no internet: Google's
 * hosts are answered here by a stand-in gtag.js that sends one collect request per config or
 * event call, like the real one.
 */

const GA4 = 'G-E2ETEST123';
const GOOGLE_HOST = /(^|\.)(googletagmanager\.com|google-analytics\.com|analytics\.google\.com)$/;

/** gtag.js as far as the network shows it: one collect hit per config (page view) and per event. */
const STAND_IN_GTAG = `(() => {
  const hit = (entry) => {
    const args = Array.prototype.slice.call(entry);
    if (args[0] !== 'config' && args[0] !== 'event') return;
    const params = args[2] || {};
    const query = new URLSearchParams({ tid: args[0] === 'config' ? args[1] : '', en: args[0] === 'config' ? 'page_view' : args[1] });
    if (params.step !== undefined) query.set('ep.step', String(params.step));
    if (params.site_speed_sample_rate !== undefined) query.set('sr', String(params.site_speed_sample_rate));
    fetch('https://region1.google-analytics.com/g/collect?' + query, { method: 'POST', mode: 'no-cors', keepalive: true });
  };
  const layer = (window.dataLayer = window.dataLayer || []);
  layer.forEach(hit);
  const push = layer.push.bind(layer);
  layer.push = (...entries) => { entries.forEach(hit); return push(...entries); };
})();`;

/** The CSP with the Google origins added as the server adds them while analytics is on. */
function withAnalyticsOrigins(csp: string): string {
  const add: Record<string, readonly string[]> = {
    'script-src': ANALYTICS_SCRIPT_ORIGINS,
    'connect-src': ANALYTICS_COLLECTION_ORIGINS,
    'img-src': ANALYTICS_COLLECTION_ORIGINS,
  };
  return csp
    .split(';')
    .map((part) => {
      const name = part.trim().split(/\s+/)[0] ?? '';
      return add[name] ? `${part.trim()} ${add[name].join(' ')}` : part.trim();
    })
    .join('; ');
}

/** This page sees the provider with GA4 on; every request to a Google host is recorded and answered here. */
async function withAnalyticsOn(page: Page): Promise<Request[]> {
  const google: Request[] = [];
  page.on('request', (request) => {
    if (GOOGLE_HOST.test(new URL(request.url()).hostname)) google.push(request);
  });
  await page.route(
    (url) => url.origin === portalOrigin && !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const html = (await response.text())
        .replace('"analyticsEnabled":false', '"analyticsEnabled":true')
        .replace('"analyticsId":null', `"analyticsId":"${GA4}"`);
      const headers = {
        ...response.headers(),
        'content-security-policy': withAnalyticsOrigins(response.headers()['content-security-policy'] ?? ''),
      };
      await route.fulfill({ response, body: html, headers });
    },
  );
  await page.route('https://www.googletagmanager.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN_GTAG }),
  );
  await page.route(/^https:\/\/[^/]*(google-analytics\.com|analytics\.google\.com)\//, (route) => route.fulfill({ status: 204 }));
  return google;
}

const googleScripts = (page: Page) => page.locator('script[src*="googletagmanager.com"]');
const consentRegion = (page: Page) => page.getByRole('region', { name: t('consent.title') });
const collected = (google: Request[]) => google.filter((request) => request.url().includes('/g/collect'));

/** Nothing was asked of Google, and no Google script is in the page, a moment after it settled. */
async function expectNothingSent(page: Page, google: Request[], where: string): Promise<void> {
  await page.waitForTimeout(2500); // past the booking step report's 2 s debounce
  expect(
    google.map((request) => request.url()),
    where,
  ).toEqual([]);
  await expect(googleScripts(page), where).toHaveCount(0);
}

for (const device of [
  { name: 'a phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'a desk', viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false },
]) {
  test.describe(`on ${device.name}`, () => {
    test.use({ viewport: device.viewport, isMobile: device.isMobile, hasTouch: device.hasTouch });

    test('nothing goes to Google before the answer; after "Allow analytics" gtag.js loads and the booking steps are reported', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const google = await withAnalyticsOn(page);
      await page.goto('/');
      const region = consentRegion(page);
      await expect(region).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
      // In the page's flow above the banner, it covers nothing: the step's primary action (Continue) is itself where it is drawn.
      expect(await region.evaluate((element) => getComputedStyle(element).position)).toBe('static');
      const primary = page.getByRole('button', { name: t('action.continue') });
      await expect(primary).toBeVisible();
      await primary.scrollIntoViewIfNeeded();
      expect(
        await primary.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
        }),
      ).toBe(true);
      await expectNothingSent(page, google, 'before the answer');
      await expectNoSeriousA11yViolations(page, '/ with the consent banner');
      await expect(region.getByRole('link', { name: t('consent.privacy') })).toBeVisible();

      // The keyboard reaches both answers; "Allow analytics" loads gtag.js with the test id.
      await region.getByRole('button', { name: t('consent.necessary') }).focus();
      await page.keyboard.press('Shift+Tab');
      await expect(region.getByRole('button', { name: t('consent.allow') })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(region).toHaveCount(0);
      await expect(googleScripts(page)).toHaveCount(1);
      await expect(googleScripts(page)).toHaveAttribute('src', `https://www.googletagmanager.com/gtag/js?id=${GA4}`);
      await expect.poll(() => collected(google).map((request) => new URL(request.url()).searchParams.get('sr'))).toContain('5');

      // The next page remembers the answer: no question, gtag.js at once; the booking moves from the exam
      // choice to the place and time, and that step goes out as an event.
      await page.goto('/?step=1&exams=xr-chest&clinic=parramatta');
      await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible({ timeout: 30_000 });
      await expect(consentRegion(page)).toHaveCount(0);
      await expect
        .poll(() =>
          collected(google)
            .map((request) => new URL(request.url()).searchParams)
            .filter((query) => query.get('en') === 'booking_step')
            .map((query) => query.get('ep.step')),
        )
        .toContain('1');
    });

    test('"Only necessary" loads nothing, on this page or the next; Cookie settings asks again', async ({ page }) => {
      test.setTimeout(120_000);
      const google = await withAnalyticsOn(page);
      await page.goto('/about');
      const region = consentRegion(page);
      await expect(region).toBeVisible();
      await region.getByRole('button', { name: t('consent.necessary') }).click();
      await expect(region).toHaveCount(0);
      await expectNothingSent(page, google, 'after "Only necessary"');
      await page.goto('/?step=1&exams=xr-chest&clinic=parramatta');
      await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible({ timeout: 30_000 });
      await expect(consentRegion(page)).toHaveCount(0);
      await expectNothingSent(page, google, 'the next page, through a booking step');

      // The answer can be changed: the footer on a desk, the menu on a phone.
      await page.goto('/about');
      if (device.isMobile) {
        await page.getByRole('button', { name: t('nav.menu') }).click();
        await page.getByRole('button', { name: t('footer.cookieSettings') }).click();
      } else {
        await page
          .getByRole('contentinfo')
          .getByRole('button', { name: t('footer.cookieSettings') })
          .click();
      }
      await expect(consentRegion(page)).toBeVisible();
      await expect(page.getByRole('heading', { name: t('consent.title') })).toBeFocused();
      await expectNoSeriousA11yViolations(page, '/about with the consent banner opened again');
      expect(google).toEqual([]);
    });
  });
}

test('no question and nothing sent on a staff page, even with analytics on', async ({ page }) => {
  const google = await withAnalyticsOn(page);
  await page.goto('/staff');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(consentRegion(page)).toHaveCount(0);
  await expectNothingSent(page, google, '/staff');
});
