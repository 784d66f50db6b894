import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { chooseRadio, surveyDialog } from './helpers/questionnaires';
import { DEMO_REFERRER, DEMO_STAFF, signInThroughPopup, type DemoAccount } from './helpers/staff';

/**
 * The referring doctor's report list (docs/rules/referrers.md#referrer-report-list) against the
 * real server and the local identity provider: Dr Riley Referrer (provider number 2426711A) signs
 * in at /referrer-access and finds the demo patients whose reports name them
 * (resources/demo-provider/results.json: Liam Example, HRR-DEMO-MR-260103, not yet released;
 * Amelia Sample, HRR-DEMO-MR-260104), each row a link to the quick report with a referrer imsec.
 */
test.use({ ignoreHTTPSErrors: true });

const QUICK_REPORT_LINK = /^\/referrer\/quick-report\?imsec=[A-Za-z0-9._~%-]+&repositorySource=default&from=list$/;
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
      const liam = page.getByRole('link', { name: 'Example, Liam' });
      const amelia = page.getByRole('link', { name: 'Sample, Amelia' });
      await expect(liam).toBeVisible({ timeout: 20_000 });
      await expect(amelia).toBeVisible();
      // The release state: its own column on a desktop, under the name on a phone.
      await expect(page.getByText(t('referrerAccess.report.notReleased')).filter({ visible: true }).first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/referrer-access (list, ${viewport.name})`);
      // Nothing wider than the screen (a phone must not scroll sideways).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // By name: the start of the last name, in any case.
      const search = page.getByLabel(t('referrerAccess.search.label'));
      await search.fill('SAM');
      await expect(liam).toBeHidden();
      await expect(amelia).toBeVisible();
      await expect(page.getByRole('status')).toHaveText(/^1 report shown/);
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

      // Keyboard: from the field, Tab reaches the row's link past the sortable headers; Enter opens the quick report.
      await search.fill('amelia');
      await expect(amelia).toBeVisible();
      await expect(liam).toBeHidden();
      await search.focus();
      for (let step = 0; step < 6 && !(await amelia.evaluate((link) => link === document.activeElement)); step += 1)
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

/**
 * The referrer's journey at 1440x900 (docs/rules/referrers.md#referrer-report-list): Dr Riley finds "Example Liam" (words in the other
 * order), sees the report marked New, opens it, gives feedback from the report, is brought back to
 * the same report after the thank-you, returns to the list by its link, and the report is no longer New.
 * Liam's report is no other journey's to open or rate.
 */
test('a referrer finds "Example Liam", opens the unread report, gives feedback, is back at the report, and the list shows it read', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAt(page, DEMO_REFERRER, '1440');
  const search = page.getByLabel(t('referrerAccess.search.label'));
  await expect(search).toBeVisible({ timeout: 20_000 });
  await search.fill('Example Liam');
  const liam = page.getByRole('link', { name: 'Example, Liam' });
  await expect(liam).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sample, Amelia' })).toBeHidden();
  const row = page.getByRole('row').filter({ has: liam });
  await expect(row.getByTestId('unread-marker')).toHaveText(t('referrerAccess.report.unread'));
  // One date format on both pages: the list's date of birth is the report's.
  const dateOfBirth = (await row.locator('time').first().textContent()) ?? '';
  expect(dateOfBirth).toMatch(/^\d{1,2} \w{3} \d{4}$/);
  await expectNoSeriousA11yViolations(page, '/referrer-access (Example Liam, 1440)');

  await liam.click();
  await expect(page).toHaveURL((url) => url.pathname === '/referrer/quick-report' && url.searchParams.get('from') === 'list');
  const reportUrl = page.url();
  await expect(page.getByTestId('quick-report-patient')).toHaveText('Liam Example', { timeout: 20_000 });
  await expect(page.getByText(dateOfBirth, { exact: true })).toBeVisible();
  const back = page.getByRole('link', { name: t('quickReport.backToList') });
  await expect(back).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/referrer/quick-report (from the list, 1440)');

  await page.getByRole('link', { name: t('quickReport.feedback') }).click();
  const dialog = surveyDialog(page);
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByRole('heading', { name: /Report feedback: Liam Example, / })).toBeVisible();
  await chooseRadio(dialog, /How clear was the report/, '5');
  await chooseRadio(dialog, /answer your clinical question/, '5');
  await chooseRadio(dialog, /turnaround time/, '4');
  await dialog.getByRole('button', { name: 'Send feedback', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you, your feedback was sent.' })).toBeVisible();
  await expect(page.getByTestId('redirect-countdown')).toHaveText(/back to the report in [34] seconds/);
  await expectNoSeriousA11yViolations(page, '/referrer/report-feedback (provided, 1440)');
  // After 4 s, the same report again (its imsec, archive and the list mark), not another page.
  await expect(page).toHaveURL(reportUrl, { timeout: 8_000 });
  await expect(page.getByTestId('quick-report-patient')).toHaveText('Liam Example', { timeout: 20_000 });

  await page.getByRole('link', { name: t('quickReport.backToList') }).click();
  await expect(page).toHaveURL(/\/referrer-access$/);
  await expect(liam).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('row').filter({ has: liam }).getByTestId('unread-marker')).toHaveCount(0);
});
