import type { Server } from 'node:http';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { EMBED_PARENT_PORT, startParentSite } from './helpers/servers';
import { signInWithCode } from './helpers/results';

/**
 * The patient's result page (docs/rules/results.md#patient-result-page-web) against the real server and the demo results
 * (resources/demo-provider/results.json): the link from the results e-mail and the patient portal
 * link send the patient to sign in with the result types (always with the e-mailed code), then the
 * page shows the released report with its PDF and images, or when it will be released; at desktop
 * and phone widths, and inside a provider's frame. axe on every page. Each test uses its own result.
 */

/** Liam's MRI knee: released a week ago, with a study (images). */
const KNEE = { key: '5dapEFtxD3iMQYyyuwZ7XA', exam: 'MRI knee', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };
/** Liam's MRI lumbar spine: released in five days. */
const SPINE = { key: '9suqiOHlNV4vYZVKvheHAA', exam: 'MRI lumbar spine', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };
/** Amelia's MRI shoulder: released, with a study. */
const SHOULDER = { key: 'jou3zNPa5Gp8X9Q_dwejWQ', exam: 'MRI shoulder', dateOfBirth: '1968-11-02', email: 'amelia.sample@example.com' };

type Surface = Page | FrameLocator;

async function expectResultPage(surface: Surface, exam: string): Promise<void> {
  await expect(surface.getByRole('heading', { level: 1, name: t('results.title') })).toBeVisible();
  await expect(surface.getByRole('heading', { level: 2, name: exam })).toBeVisible();
}

/** Status, type and disposition of a same-origin file, fetched by the page itself (with its session cookie). */
async function fetchHead(page: Page, url: string) {
  return page.evaluate(async (href) => {
    const response = await fetch(href, { credentials: 'include' });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      disposition: response.headers.get('content-disposition'),
      start: new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5)),
    };
  }, url);
}

/** The impression's box comes before the findings in the page's order and on screen (docs/rules/results.md#reading-the-report). */
async function expectImpressionFirst(page: Page): Promise<void> {
  // The result's own report (the earlier results below have theirs).
  const report = page.getByTestId('report-text').first();
  const impression = report.getByTestId('report-impression');
  await expect(impression.getByRole('heading', { name: t('results.report.conclusion') })).toBeVisible();
  const findings = report.getByRole('heading', { name: t('results.report.sections.findings') });
  await expect(findings).toBeVisible();
  expect(
    await impression.evaluate(
      (box, other) => Boolean(box.compareDocumentPosition(other as Node) & Node.DOCUMENT_POSITION_FOLLOWING),
      await findings.elementHandle(),
    ),
  ).toBe(true);
  const [impressionBox, findingsBox] = [await impression.boundingBox(), await findings.boundingBox()];
  expect(impressionBox?.y ?? Infinity).toBeLessThan(findingsBox?.y ?? -Infinity);
  await expect(report.getByText(/FINDINGS:|IMPRESSION:/)).toHaveCount(0);
}

test.describe('on a desktop (1440 x 900)', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a patient opens the results e-mail link, signs in with the code and reads the released report, PDF and images', async ({
    page,
  }) => {
    await page.goto(`/appointments/${KNEE.key}/result`);
    await expect(page).toHaveURL(
      `/authentication?returnUrl=${encodeURIComponent(`/appointments/${KNEE.key}/result`)}&bookingKey=${KNEE.key}&type=APPOINTMENT_RESULTS`,
    );
    await expect(page.getByRole('heading', { level: 1, name: t('authentication.titleResults') })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/authentication (results)');

    await signInWithCode(page, KNEE);
    await expect(page).toHaveURL(new RegExp(`/appointments/${KNEE.key}/result$`));
    await expectResultPage(page, KNEE.exam);
    await expect(page.getByTestId('result-exam-date')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    await expect(page.getByText('Dr Daniel Okafor').first()).toBeVisible();
    // The radiologist's conclusion first, set apart; then the findings under a plain heading.
    await expectImpressionFirst(page);
    await expect(
      page
        .getByTestId('report-impression')
        .first()
        .getByText(/^1\. Horizontal oblique tear/),
    ).toBeVisible();
    // A glossary term explains itself on hover and on keyboard focus.
    const term = page
      .getByTestId('report-impression')
      .getByRole('button', { name: /show what it means$/ })
      .first();
    await term.hover();
    await expect(page.getByTestId('report-impression').getByTestId('glossary-definition').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/appointments/…/result (released)');

    const view = page.getByRole('link', { name: t('results.report.view') }).first();
    await expect(view).toHaveAttribute('target', '_blank');
    await expect(view).toHaveAttribute('rel', /noopener/);
    const inline = await fetchHead(page, (await view.getAttribute('href')) ?? '');
    expect(inline).toMatchObject({ status: 200, type: 'application/pdf', start: '%PDF-' });
    expect(inline.disposition).toMatch(/^inline/);
    const download = page.getByRole('link', { name: t('results.report.download') }).first();
    const attachment = await fetchHead(page, (await download.getAttribute('href')) ?? '');
    expect(attachment).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(attachment.disposition).toMatch(/^attachment/);

    // The keyboard reaches View images; the viewer opens in the same tab.
    const images = page.getByRole('button', { name: t('results.images.view') }).first();
    await images.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/demo-viewer\?/);
  });
});

test.describe('on a phone (390 x 844, touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('one sign-in: the result reads impression first, a term explains itself on tap, the images open on top and come back, the earlier results and the portal link need no new sign-in', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto(`/appointments/${KNEE.key}/result`);
    await expect(page).toHaveURL(/\/authentication\?/);
    await signInWithCode(page, KNEE);
    await expectResultPage(page, KNEE.exam);
    await expectImpressionFirst(page);
    await expectNoSeriousA11yViolations(page, '/appointments/…/result (390x844)');

    // Terms are marked quietly (a grey dotted underline, not the link's) and once per section.
    const style = await page
      .locator('.pp-term-button')
      .first()
      .evaluate((element) => {
        const computed = getComputedStyle(element);
        return { line: computed.textDecorationLine, kind: computed.textDecorationStyle, colour: computed.textDecorationColor };
      });
    expect(style).toEqual({ line: 'underline', kind: 'dotted', colour: 'rgb(107, 114, 128)' });
    for (const section of await page.locator('.pp-report-impression, .pp-report-section').all()) {
      const marked = (await section.locator('.pp-term-button').allInnerTexts()).map((text) => text.toLowerCase());
      expect(new Set(marked).size).toBe(marked.length);
    }

    // A tap on a term opens its definition; a second tap closes it.
    const impression = page.getByTestId('report-impression').first();
    const term = impression.getByRole('button', { name: /show what it means$/ }).first();
    await term.tap();
    await expect(term).toHaveAttribute('aria-expanded', 'true');
    const definition = impression.getByTestId('glossary-definition').first();
    await expect(definition).toBeVisible();
    await expect(definition).toBeInViewport();
    await expectNoSeriousA11yViolations(page, '/appointments/…/result with a definition open (390x844)');
    await term.tap();
    await expect(definition).toBeHidden();

    // The earlier results are there without a second form (Liam's spine, not yet released).
    const history = page.getByRole('region', { name: t('results.history.title') });
    await expect(history.getByRole('list', { name: t('results.history.listLabel') })).toBeVisible();
    await expect(history.getByRole('textbox')).toHaveCount(0);

    // The images open on top, named by the exam (no study UID), with the way back to the same place.
    const images = page.getByRole('button', { name: t('results.images.view') });
    await images.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await images.tap();
    await expect(page).toHaveURL(/\/demo-viewer\?/);
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${KNEE.exam}, `) })).toBeVisible();
    await expect(page.getByText(/2\.25\.\d{6,}/)).toHaveCount(0);
    const back = page.getByRole('link', { name: 'Back to your results' });
    await expect(back).toBeInViewport();
    await expect(page.locator('img.pp-demo-viewer-image')).toBeInViewport({ ratio: 0.3 });
    // The zoom buttons float over the image's bottom edge (thumb reach), never above it pushing it down.
    const stage = (await page.locator('.pp-demo-viewer-stage').boundingBox())!;
    const picture = (await page.locator('img.pp-demo-viewer-image').boundingBox())!;
    const tools = (await page.getByRole('group', { name: 'Zoom' }).boundingBox())!;
    expect(picture.y).toBeLessThanOrEqual(stage.y + 2);
    expect(tools.y).toBeGreaterThan(stage.y + stage.height / 2);
    expect(tools.y + tools.height).toBeLessThanOrEqual(stage.y + stage.height);
    expect(tools.height).toBeGreaterThanOrEqual(44);
    await expectNoSeriousA11yViolations(page, '/demo-viewer from the result (390x844)');
    await back.tap();
    await expect(page).toHaveURL(new RegExp(`/appointments/${KNEE.key}/result$`));
    await expectResultPage(page, KNEE.exam);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 80);
    await expect(images).toBeInViewport();

    // The patient portal link of the same booking opens without asking again.
    await page.goto(`/appointments/${KNEE.key}/result/patient`);
    await expectResultPage(page, KNEE.exam);
    await expect(page).toHaveURL(new RegExp(`/appointments/${KNEE.key}/result/patient$`));
    await expect(page.getByRole('region', { name: t('results.history.title') })).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/appointments/…/result/patient without a second sign-in (390x844)');
  });
});

test.describe('on a phone (375 x 667)', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('the patient portal link prefills the date of birth and shows when the report will be released', async ({ page }) => {
    const link = `/appointments/${SPINE.key}/result/patient?dateOfBirth=${SPINE.dateOfBirth}&otpType=EMAIL`;
    await page.goto(link);
    await expect(page).toHaveURL(/\/authentication\?/);
    const query = new URL(page.url()).searchParams;
    expect([query.get('type'), query.get('returnUrl'), query.get('otpType')]).toEqual(['PATIENT_PORTAL', link, 'EMAIL']);
    await expect(page.getByLabel(t('authentication.fields.dateOfBirth'))).toHaveValue(SPINE.dateOfBirth);
    await expectNoSeriousA11yViolations(page, '/authentication (patient portal, 375x667)');
    await signInWithCode(page, SPINE, true);

    await expect(page).toHaveURL(link);
    await expectResultPage(page, SPINE.exam);
    await expect(page.getByText(/^Your report will be available from .+\.$/)).toBeVisible();
    // No report of its own yet (the earlier results below may have theirs).
    await expect(page.locator('.pp-result-report')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page, '/appointments/…/result/patient (not released, 375x667)');
  });
});

test.describe("inside a provider's frame", () => {
  const servers: Server[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test('the result opens under /iframe, and the images in a new top-level tab', async ({ page }) => {
    servers.push(await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', `/iframe/appointments/${SHOULDER.key}/result`));
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    await expect(frame.getByRole('heading', { level: 1, name: t('authentication.titleResults') })).toBeVisible();
    await signInWithCode(frame, SHOULDER);
    await expectResultPage(frame, SHOULDER.exam);
    const framed = page.frames().find((candidate) => candidate !== page.mainFrame());
    await expect.poll(() => new URL(framed?.url() ?? 'http://x/').pathname).toBe(`/iframe/appointments/${SHOULDER.key}/result`);
    await expect(frame.getByText(t('results.images.newTab'))).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/iframe/appointments/…/result in the provider frame');

    const popup = page.context().waitForEvent('page');
    await frame.getByRole('button', { name: t('results.images.view') }).click();
    const viewer = await popup;
    await expect.poll(() => new URL(viewer.url()).pathname).toBe('/demo-viewer');
    // The frame stays on the result.
    await expect(frame.getByRole('heading', { level: 2, name: SHOULDER.exam })).toBeVisible();
  });
});
