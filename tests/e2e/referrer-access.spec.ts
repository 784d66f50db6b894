import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { DEMO_REFERRER, DEMO_STAFF, signInThroughPopup, type DemoAccount } from './helpers/staff';

/**
 * The referring doctor's report list (docs/rules/referrers.md#referrer-report-list) against the
 * real server and the local identity provider: Dr Riley Referrer (provider number 2426711A) signs
 * in at /referrer-access and finds the demo patients whose reports name them
 * (resources/demo-provider/results.json: Liam Example, HRR-DEMO-MR-260103, not yet released;
 * Amelia Sample, HRR-DEMO-MR-260104), each row a link to the quick report with a referrer imsec.
 */
test.use({ ignoreHTTPSErrors: true });

const QUICK_REPORT_LINK = /^\/referrer\/quick-report\?imsec=[A-Za-z0-9._~%-]+&repositorySource=default$/;
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 667 },
];

async function signInAt(page: Page, account: DemoAccount, label: string): Promise<void> {
  await page.goto('/referrer-access');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(t('referrerAccess.signInNeeded'), { timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, `/referrer-access (signed out, ${label})`);
  await signInThroughPopup(page, () => alert.getByRole('button', { name: t('referrerAccess.signIn') }).click(), account);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} x ${viewport.height} (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a referring doctor signs in, finds a patient by name and by accession number, and the row opens the quick report', async ({
      page,
    }) => {
      await signInAt(page, DEMO_REFERRER, viewport.name);
      const liam = page.getByRole('link', { name: /Liam Example/ });
      const amelia = page.getByRole('link', { name: /Amelia Sample/ });
      await expect(liam).toBeVisible({ timeout: 20_000 });
      await expect(amelia).toBeVisible();
      await expect(page.getByText(t('referrerAccess.report.notReleased'))).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/referrer-access (list, ${viewport.name})`);
      // Nothing wider than the screen (a phone must not scroll sideways).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // By name: the start of the last name, in any case.
      const search = page.getByLabel(t('referrerAccess.search.label'));
      await search.fill('SAM');
      await expect(liam).toBeHidden();
      await expect(amelia).toBeVisible();
      await expect(page.getByRole('status')).toHaveText(t('referrerAccess.count', { count: 1 }));
      await expectNoSeriousA11yViolations(page, `/referrer-access (searched, ${viewport.name})`);

      // The whole name in the other order: every word a start of a name.
      await search.fill('Example Liam');
      await expect(liam).toBeVisible();
      await expect(amelia).toBeHidden();

      // By accession number; and a search that finds nothing says so.
      await search.fill('hrr-demo-mr-260103');
      await expect(liam).toBeVisible();
      await expect(amelia).toBeHidden();
      await search.fill('Okafor');
      await expect(page.getByText(t('referrerAccess.noMatch', { search: 'Okafor' }))).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/referrer-access (no match, ${viewport.name})`);

      // Keyboard: from the field, Tab reaches the row's link; Enter opens the quick report.
      await search.fill('amelia');
      await expect(amelia).toBeVisible();
      await expect(liam).toBeHidden();
      await search.focus();
      await page.keyboard.press('Tab');
      await expect(amelia).toBeFocused();
      const href = (await amelia.getAttribute('href')) ?? '';
      expect(href).toMatch(QUICK_REPORT_LINK);
      // The link's imsec is a live referrer link to that report's images.
      const imsec = new URL(href, 'http://x').searchParams.get('imsec') ?? '';
      const opened = await page.evaluate(
        async (input) =>
          (await fetch(`/api/image_viewer?input=${encodeURIComponent(input)}`)).json() as Promise<{ imageViewerLinkStatus: string }>,
        imsec,
      );
      expect(opened.imageViewerLinkStatus).toBe('ACTIVE');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL((url) => url.pathname === '/referrer/quick-report' && url.searchParams.get('imsec') === imsec);
    });
  });
}

test('a staff member without the referrer role is told so, and sees no patient', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAt(page, DEMO_STAFF, 'staff');
  await expect(page.getByRole('alert')).toContainText(t('referrerAccess.roleNeeded'), { timeout: 20_000 });
  await expect(page.getByLabel(t('referrerAccess.search.label'))).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/referrer-access (staff, no referrer role)');
});
