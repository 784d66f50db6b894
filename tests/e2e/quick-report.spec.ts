import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { REFERRER_IMAGE_LINK } from '../../src-contract/api/image-viewer';
import { createTestClock } from '../../src-server/platform/clock';
import { createSignedLinks, parseSignedLinkKeys } from '../../src-server/platform/signed-links';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { mailsTo } from './helpers/mail';
import { appointmentSlugOf, deliverReport, quickReportLinkIn } from './helpers/result-delivery';
import { E2E_PACS_PORTAL, E2E_SIGNED_LINK_KEYS } from './helpers/servers';

/**
 * The referring doctor's quick report (docs/rules/referrers.md#quick-report) against the
 * real server: the RIS delivers a report naming the referrer's e-mail, the referrer opens the link
 * from that mail and sees the report and the images in the demo viewer (in a frame); a report
 * delivered without images shows "not available" until the demo PACS has generated them; an
 * expired link goes to the deny page; a link naming a PACS-preference archive goes to its portal.
 * axe on every page. Oliver's booking (resources/demo-provider/appointments.json) is no other
 * journey's, so its code-send limits are this journey's own.
 */

const OLIVER = { key: 'Nj3PQywTfwZs5UvmttODPA', dateOfBirth: '1957-01-30', email: 'oliver.testwood@example.com' };
const REFERRER = { name: 'Dr Riley Referrer', providerNumber: '2426711A', email: 'riley.quick@harbour-medical.example' };
const REPORT = 'XR LEFT KNEE\n\nFINDINGS:\nMild medial joint space narrowing.\n\nIMPRESSION:\nEarly osteoarthritis.';

test.describe.configure({ mode: 'serial' });

let slug = '';

/** Delivers a report for Oliver naming the referrer, and answers the quick report link of the mail it sends. */
async function deliverAndOpenMail(page: Page, request: APIRequestContext, accessionNumber: string, withStudy: boolean): Promise<string> {
  if (slug === '') slug = await appointmentSlugOf(page, OLIVER);
  // The RIS's own client, without the page's session cookie.
  await deliverReport(request, {
    accessionNumber,
    appointmentSlug: slug,
    reportText: REPORT,
    referrer: REFERRER,
    ...(withStudy ? {} : { study: null }),
  });
  let text = '';
  await expect
    .poll(
      async () => {
        const mail = (await mailsTo(REFERRER.email)).find((candidate) => (candidate.text ?? '').includes(accessionNumber));
        expect(mail?.subject ?? 'Report ready for Oliver T.').toContain('Report ready for Oliver T.');
        text = mail?.text ?? '';
        return text;
      },
      { timeout: 15_000, message: `no report-ready mail for ${accessionNumber}` },
    )
    .not.toBe('');
  const link = quickReportLinkIn(text);
  expect(link, text).toBeTruthy();
  return link ?? '';
}

test('the referrer opens the link from the mail and sees the report and the images in the viewer (desktop)', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const link = await deliverAndOpenMail(page, request, 'E2E-QR-1', true);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: t('quickReport.title') })).toBeVisible();
  await expect(page.getByTestId('quick-report-patient')).toHaveText('Oliver Testwood');
  // The date of birth written as the report list writes it, not 1957-01-30.
  await expect(page.locator('time[datetime="1957-01-30"]')).toHaveText('30 Jan 1957');
  await expect(page.getByTestId('report-text').getByText(/^IMPRESSION:\nEarly osteoarthritis\.$/)).toBeVisible();
  const viewer = page.frameLocator('[data-testid="quick-report-viewer"]');
  await expect(viewer.getByRole('figure').getByRole('img').first()).toBeVisible();
  // The frame holds only the viewer, fitted to it: no heading or thumbnails repeated inside, no scrolling.
  await expect(viewer.getByRole('heading', { level: 2 })).toHaveCount(0);
  await expect(viewer.getByRole('list')).toHaveCount(0);
  const frame = page.frame({ url: /\/iframe\/demo-viewer\?.*fit=frame/ });
  expect(frame).not.toBeNull();
  await expect
    .poll(async () => frame?.evaluate(() => document.documentElement.scrollHeight <= document.documentElement.clientHeight))
    .toBe(true);
  const image = await viewer.locator('.pp-demo-viewer-image').boundingBox();
  const framed = await page.getByTestId('quick-report-viewer').boundingBox();
  expect(image !== null && framed !== null && image.y + image.height <= framed.y + framed.height).toBe(true);
  await expectNoSeriousA11yViolations(page, '/referrer/quick-report with the viewer (1280x800)');

  // The PDF opens from the same link.
  const pdfHref = (await page.getByRole('link', { name: t('results.report.view') }).getAttribute('href')) ?? '';
  const pdf = await page.evaluate(async (href) => (await fetch(href)).headers.get('content-type'), pdfHref);
  expect(pdf).toBe('application/pdf');
});

test('on a phone, a report without images says so until the demo PACS has made them, then shows the viewer', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 375, height: 667 });
  const link = await deliverAndOpenMail(page, request, 'E2E-QR-2', false);
  await page.goto(link);
  await expect(page.getByText(t('quickReport.notAvailable'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/referrer/quick-report while the images are generated (375x667)');
  await expect(page.getByTestId('quick-report-viewer')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(t('quickReport.notAvailable'))).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, '/referrer/quick-report with the generated images (375x667)');
});

test('an expired link goes to the deny page; a link naming a PACS-preference archive goes to its portal', async ({ page, request }) => {
  const link = new URL(await deliverAndOpenMail(page, request, 'E2E-QR-3', true));
  const imsec = link.searchParams.get('imsec') ?? '';
  const claims = JSON.parse(Buffer.from(imsec.split('.')[2] ?? '', 'base64url').toString('utf8')) as { sub: string };
  // The same link as the server made it 31 days ago (its configured test key, playwright.config.ts).
  const monthAgo = createSignedLinks({
    keys: parseSignedLinkKeys(E2E_SIGNED_LINK_KEYS),
    clock: createTestClock(new Date(Date.now() - 31 * 86_400_000)),
  });
  const expired = monthAgo.sign({ ...REFERRER_IMAGE_LINK, subject: claims.sub, ttlMs: 30 * 86_400_000 });
  await page.goto(`/referrer/quick-report?imsec=${encodeURIComponent(expired)}&repositorySource=default`);
  await expect(page).toHaveURL(/\/deny\?resultsExpired=true$/);
  await expect(page.getByText(t('deny.resultsExpired'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/deny?resultsExpired=true (referrer)');

  await page.route(`${E2E_PACS_PORTAL}**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>PACS portal</title><h1>PACS portal</h1></html>',
    }),
  );
  link.searchParams.set('repositorySource', 'archive');
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page).toHaveURL(E2E_PACS_PORTAL);
  await expect(page.getByRole('heading', { name: 'PACS portal' })).toBeVisible();
});

test('a link without its imsec says no valid credentials are available', async ({ page }) => {
  await page.goto('/referrer/quick-report');
  await expect(page.getByRole('alert')).toHaveText(t('quickReport.noCredentials'));
  await expectNoSeriousA11yViolations(page, '/referrer/quick-report without a link');
});
