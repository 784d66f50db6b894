import { expect, test, type Browser } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { DEMO_REFERRER, DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * An external user reaches images through /image-viewer-access (docs/identity.md#the-browser:
 * direct image access navigates to the returned url): someone outside the provider holds an
 * image link (imsec) and opens /image-viewer-access?input=<imsec>; after the organisation sign-in
 * the page calls POST /api/image_viewer/direct with the link and the signed-in name, and the
 * browser goes to the viewer address answered (here the demo viewer). A changed link is refused
 * with the spec's message. The image link comes from the demo referrer's report list
 * (Amelia Sample, HRR-DEMO-MR-260104, resources/demo-provider/results.json).
 */
test.use({ ignoreHTTPSErrors: true });

/** A live referrer image link, read off the referrer's report list in a browser of its own. */
async function imageLinkFromReferrerList(browser: Browser): Promise<string> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto('/referrer-access');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(t('referrerAccess.signInNeeded'), { timeout: 20_000 });
  await signInThroughPopup(page, () => alert.getByRole('button', { name: t('referrerAccess.signIn') }).click(), DEMO_REFERRER);
  const amelia = page.getByRole('link', { name: 'Sample, Amelia' });
  await expect(amelia).toBeVisible({ timeout: 20_000 });
  const href = (await amelia.getAttribute('href')) ?? '';
  await context.close();
  const imsec = new URL(href, 'http://x').searchParams.get('imsec') ?? '';
  expect(imsec).not.toBe('');
  return imsec;
}

for (const size of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`an external user signs in at /image-viewer-access and lands in the viewer (${size.name})`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    const imsec = await imageLinkFromReferrerList(browser);
    await page.setViewportSize({ width: size.width, height: size.height });
    const direct = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/image_viewer/direct'));
    await page.goto(`/image-viewer-access?input=${encodeURIComponent(imsec)}`);
    const signIn = page.getByRole('button', { name: t('staff.imageViewerAccess.signIn') });
    await expect(signIn).toBeVisible({ timeout: 20_000 });
    await expectNoSeriousA11yViolations(page, `/image-viewer-access with an image link (${size.name})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await signInThroughPopup(page, () => signIn.click(), DEMO_STAFF);
    const sent = (await direct).postDataJSON() as { input: string; username?: string; email?: string };
    expect(sent).toEqual({ input: imsec, username: DEMO_STAFF.username, email: DEMO_STAFF.username });
    await expect(page).toHaveURL(/\/demo-viewer\?study=[^&]+&token=v1\./, { timeout: 20_000 });
    await expect(page.getByRole('figure').getByRole('img').first()).toBeVisible({ timeout: 20_000 });
    await expectNoSeriousA11yViolations(page, `/demo-viewer reached directly (${size.name})`);
  });
}

test('a changed image link is refused after sign-in with the spec message, and nothing opens', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const imsec = await imageLinkFromReferrerList(browser);
  const changed = `${imsec.slice(0, -3)}${imsec.endsWith('AAA') ? 'BBB' : 'AAA'}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/image-viewer-access?input=${encodeURIComponent(changed)}`);
  const signIn = page.getByRole('button', { name: t('staff.imageViewerAccess.signIn') });
  await expect(signIn).toBeVisible({ timeout: 20_000 });
  await signInThroughPopup(page, () => signIn.click(), DEMO_STAFF);
  await expect(page.getByRole('alert')).toContainText(t('staff.imageViewerAccess.noAccess'), { timeout: 20_000 });
  await expect(page).toHaveURL(/\/image-viewer-access\?input=/);
  await expectNoSeriousA11yViolations(page, '/image-viewer-access (link refused)');
});
