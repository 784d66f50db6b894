import type { Server } from 'node:http';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { answerQuestionnairesPlainly } from './helpers/questionnaires';
import { EMBED_PARENT_PORT, OTHER_PARENT_PORT, portalOrigin, startParentSite, startScriptParentSite } from './helpers/servers';

/**
 * The portal inside a provider's own website: the /iframe routes use the embedded layout, the
 * configured provider origin may frame it, and any other site is refused by frame-ancestors.
 */

const PROVIDER = 'Harbour & Range Radiology';

/** The portal frame's height and its content's, read from the browser. */
async function heights(page: Page, title: string): Promise<{ frame: number; content: number }> {
  const iframe = page.locator(`iframe[title="${title}"]`);
  // Its CSS height: the portal's own /iframe-test page is zoomed on short screens, the frame with it.
  const frame = await iframe.evaluate((element) => parseFloat(getComputedStyle(element).height));
  const content = await page
    .frameLocator(`iframe[title="${title}"]`)
    .locator('.pp-app')
    .evaluate((element) => element.getBoundingClientRect().height);
  return { frame, content };
}

/** The frame is as tall as what it shows, within 50 px (the script keeps its height). */
async function expectFrameFitsContent(page: Page, title: string): Promise<void> {
  await expect
    .poll(async () => {
      const { frame, content } = await heights(page, title);
      return Math.abs(frame - content);
    })
    .toBeLessThanOrEqual(50);
}

/** None of the website's own chrome inside the frame: the provider's page is the chrome. */
async function expectNoChrome(frame: FrameLocator): Promise<void> {
  await expect(frame.locator('main')).toHaveCount(1);
  await expect(frame.getByRole('banner')).toHaveCount(0);
  await expect(frame.getByRole('contentinfo')).toHaveCount(0);
  await expect(frame.locator('header, footer, .pp-banner, .pp-environment, .pp-skip-link, .pp-login-link')).toHaveCount(0);
}

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

test('/iframe-test shows the portal in a frame on its own site, made by the embed script', async ({ page }) => {
  await page.goto('/iframe-test');
  await expect(page.getByRole('heading', { level: 1, name: t('iframeTest.title') })).toBeVisible();
  const frame = page.frameLocator(`iframe[title="${t('iframeTest.frameTitle')}"]`);
  await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('iframe')).toHaveAttribute('src', /\/iframe\/select-region\?parentOrigin=/);
  await expectFrameFitsContent(page, t('iframeTest.frameTitle'));
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

test.describe('embedded with the script tag (/embed.js)', () => {
  const servers: Server[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const FRAME = 'Book an appointment';

  /** The provider's page with the start page framed by its embed script (the parent site stops after the test): the frame. */
  async function openFramedStartPage(page: Page): Promise<FrameLocator> {
    servers.push(await startScriptParentSite(EMBED_PARENT_PORT, '127.0.0.1', [{ path: '/select-region', title: FRAME }]));
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    return page.frameLocator(`iframe[title="${FRAME}"]`);
  }

  for (const size of [
    { name: 'at 1280 wide', viewport: { width: 1280, height: 900 }, hasTouch: false },
    { name: 'on a 390x844 phone', viewport: { width: 390, height: 844 }, hasTouch: true },
  ]) {
    test.describe(size.name, () => {
      test.use({ viewport: size.viewport, hasTouch: size.hasTouch });

      test('shows the portal without its chrome, its height following the content through booking', async ({ page }) => {
        const frame = await openFramedStartPage(page);
        await expect(frame.getByRole('heading', { level: 1, name: t('selectRegion.title', { name: PROVIDER }) })).toBeVisible();
        await expectNoChrome(frame);
        await expectFrameFitsContent(page, FRAME);
        // The frame never scrolls by itself: the page around it does.
        await expect(frame.locator('html')).toHaveClass(/pp-embed-sized/);
        await expectNoSeriousA11yViolations(page, 'embedded start page');

        // A clinic from the start page leads into booking for that clinic, inside the frame.
        await frame.getByRole('link', { name: t('selectRegion.bookAtClinic', { clinic: 'Parramatta' }) }).click();
        await expect(frame.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
        await expectNoChrome(frame);
        await expectFrameFitsContent(page, FRAME);

        await frame.getByRole('searchbox', { name: t('booking.exams.search') }).fill('Ultrasound abdomen');
        await frame.getByRole('checkbox', { name: /^Ultrasound abdomen\b/ }).check();
        await expectFrameFitsContent(page, FRAME);
        await frame.getByRole('button', { name: t('action.continue') }).click();
        await answerQuestionnairesPlainly(frame, frame.getByRole('heading', { level: 2, name: t('booking.location.title') }));
        await expect(frame.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
        await expectFrameFitsContent(page, FRAME);
        await expectNoSeriousA11yViolations(page, 'embedded booking: clinic step');
      });

      test('a dialog opened deep in the frame appears in the visible part of the page', async ({ page }) => {
        servers.push(await startScriptParentSite(EMBED_PARENT_PORT, '127.0.0.1', [{ path: '/advanced-booking', title: FRAME }]));
        await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
        const frame = page.frameLocator(`iframe[title="${FRAME}"]`);
        await expect(frame.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
        await expectFrameFitsContent(page, FRAME);
        // The last exam's "About" is far down a tall frame, itself far down the provider's page.
        const about = frame.getByRole('button', { name: new RegExp(`^${t('booking.exams.aboutExam', { name: '' })}`) }).last();
        // Scrolled the way a visitor does: the provider's page, until the button is in the window.
        const inFrame = await about.evaluate((button) => button.getBoundingClientRect().top);
        await page.evaluate((top) => {
          const iframe = document.querySelector('iframe');
          window.scrollTo(0, (iframe?.getBoundingClientRect().top ?? 0) + window.scrollY + top - window.innerHeight / 2);
        }, inFrame);
        const frameBox = await page.locator(`iframe[title="${FRAME}"]`).boundingBox();
        expect(frameBox?.y ?? 0, 'the frame starts above the visible part').toBeLessThan(-200);
        await about.click();
        const dialog = frame.getByRole('dialog');
        await expect(dialog).toBeVisible();
        const viewport = page.viewportSize() ?? { width: 0, height: 0 };
        await expect
          .poll(async () => {
            const box = await dialog.boundingBox();
            return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
          })
          .toBe(true);
        await expectNoSeriousA11yViolations(page, 'embedded booking: exam information dialog');
      });
    });
  }

  test('height messages from another origin or another window are ignored', async ({ page }) => {
    const frame = await openFramedStartPage(page);
    await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
    await expectFrameFitsContent(page, FRAME);
    const before = (await heights(page, FRAME)).frame;
    await page.evaluate((portal) => {
      const iframe = document.querySelector('iframe');
      const data = { type: 'radiology-portal:height', height: 3000 };
      // The frame's own window, but another origin; the portal's origin, but not from its frame.
      window.dispatchEvent(new MessageEvent('message', { data, origin: 'http://127.0.0.1:1', source: iframe?.contentWindow ?? null }));
      window.dispatchEvent(new MessageEvent('message', { data, origin: portal, source: window }));
      window.postMessage(data, '*');
    }, portalOrigin);
    await page.waitForTimeout(300);
    expect((await heights(page, FRAME)).frame).toBe(before);
    // The same message from the frame itself is taken (the test above is not vacuous).
    await page.evaluate((portal) => {
      const iframe = document.querySelector('iframe');
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'radiology-portal:height', height: 3000 },
          origin: portal,
          source: iframe?.contentWindow ?? null,
        }),
      );
    }, portalOrigin);
    await expect.poll(async () => (await heights(page, FRAME)).frame).toBe(3000);
  });

  test('a frame below the fold follows its content while the visitor reads the page above it', async ({ page }) => {
    const frame = await openFramedStartPage(page);
    await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
    await expectFrameFitsContent(page, FRAME);
    const viewportHeight = page.viewportSize()?.height ?? 0;
    const top = await page.locator(`iframe[title="${FRAME}"]`).evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeGreaterThan(viewportHeight);
    // Content arriving late (a slow answer, a notice) while the browser does not render the frame.
    await frame.locator('.pp-main').evaluate((main) => {
      const late = document.createElement('div');
      late.style.height = '700px';
      late.textContent = 'Content that arrived later.';
      main.append(late);
    });
    await expect
      .poll(
        async () => {
          const { frame: frameHeight, content } = await heights(page, FRAME);
          return Math.abs(frameHeight - content);
        },
        { timeout: 2000 },
      )
      .toBeLessThanOrEqual(50);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('several script tags on one page make frames that keep their own heights', async ({ page }) => {
    servers.push(
      await startScriptParentSite(EMBED_PARENT_PORT, '127.0.0.1', [
        { path: '/select-region', title: 'Start here' },
        { path: '/about', title: 'About the practice' },
      ]),
    );
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    await expect(page.frameLocator('iframe[title="Start here"]').getByRole('heading', { level: 1 })).toBeVisible();
    await expect(
      page.frameLocator('iframe[title="About the practice"]').getByRole('heading', { level: 1, name: t('about.title') }),
    ).toBeVisible();
    await expect(page.locator('iframe')).toHaveCount(2);
    await expectFrameFitsContent(page, 'Start here');
    await expectFrameFitsContent(page, 'About the practice');
  });
});
