import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { codeFromMail, forgetMailsTo } from './helpers/sign-in';

/**
 * The demo image viewer (/demo-viewer, the demo provider's stand-in for a PACS viewer) from the
 * server's seeded data: the demo patient signs in for results (date of birth and the e-mailed
 * code), the released MRI's image link (GET /api/image_viewer) gives the viewer's address with a
 * signed demo viewer link, and the page shows the study, switches images from the keyboard, zooms,
 * and refuses a changed link. resources/demo-provider/results.json and appointments.json.
 */

const LIAM_MRI = { bookingKey: '5dapEFtxD3iMQYyyuwZ7XA', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };
const STUDY_UID = '2.25.38584323566160511800902969745502384716';

type Catalogue = { demoViewer: Record<string, string> };
const texts = (JSON.parse(readFileSync(join(process.cwd(), 'src-web/i18n/locales/en/demo-viewer.json'), 'utf8')) as Catalogue).demoViewer;
const text = (key: string): string => {
  const value = texts[key];
  if (value === undefined) throw new Error(`demo-viewer.json has no ${key}`);
  return value;
};

/** The same-origin API as the web app calls it (the CSRF header on writes). */
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

/** Signs the browser in for the booking's results and answers the demo viewer address its image link opens. */
async function viewerAddress(request: APIRequestContext): Promise<string> {
  const authenticated = await request.post('/api/patient-access/authenticate', {
    headers: HEADERS,
    data: { bookingKey: LIAM_MRI.bookingKey, type: 'APPOINTMENT_RESULTS', dateOfBirth: LIAM_MRI.dateOfBirth },
  });
  expect(authenticated.status(), await authenticated.text()).toBe(200);
  await forgetMailsTo(LIAM_MRI.email);
  expect((await request.post('/api/patient-access/otp', { headers: HEADERS, data: { channel: 'EMAIL' } })).status()).toBe(202);
  const verified = await request.post('/api/patient-access/otp/verify', {
    headers: HEADERS,
    data: { code: await codeFromMail(LIAM_MRI.email) },
  });
  expect(verified.status(), await verified.text()).toBe(200);

  const result = await request.get(`/api/results/${LIAM_MRI.bookingKey}`);
  expect(result.status(), await result.text()).toBe(200);
  const { state, imageViewerLink } = (await result.json()) as { state: string; imageViewerLink: string | null };
  expect(state).toBe('RELEASED');
  expect(imageViewerLink).not.toBeNull();

  const opened = await request.get(`/api/image_viewer?input=${encodeURIComponent(imageViewerLink ?? '')}`);
  expect(opened.status(), await opened.text()).toBe(200);
  const { url, imageViewerLinkStatus } = (await opened.json()) as { url: string | null; imageViewerLinkStatus: string };
  expect(imageViewerLinkStatus).toBe('ACTIVE');
  expect(url).toMatch(new RegExp(`^/demo-viewer\\?study=${STUDY_UID.replace(/\./g, '\\.')}&token=v1\\.`));
  return url ?? '';
}

test('the demo patient opens the released MRI in the demo viewer: study, images, keyboard, zoom; a changed link is refused', async ({
  page,
}) => {
  const address = await viewerAddress(page.request);
  await page.goto(address);

  await expect(page.getByRole('heading', { level: 1, name: text('title') })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Synthetic MRI');
  const strip = page.getByRole('list', { name: text('images') });
  const thumbs = strip.getByRole('button');
  const count = await thumbs.count();
  expect(count).toBeGreaterThanOrEqual(4);
  expect(count).toBeLessThanOrEqual(6);
  // Every picture arrives: the thumbnails and the large image are real 512 x 512 PNGs.
  await expect
    .poll(() =>
      page
        .locator('.pp-demo-viewer img')
        .evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth === 512)),
    )
    .toBe(true);
  await expectNoSeriousA11yViolations(page, '/demo-viewer');

  // From the keyboard: the third thumbnail, then Enter.
  await thumbs.nth(2).focus();
  await page.keyboard.press('Enter');
  await expect(thumbs.nth(2)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status')).toContainText(`3 of ${count}`);

  const content = page.locator('.react-transform-component');
  await page.getByRole('button', { name: text('zoomIn') }).click();
  await expect.poll(() => content.evaluate((element) => getComputedStyle(element).transform)).toMatch(/^matrix\(1\.4, 0, 0, 1\.4/);
  await page.getByRole('button', { name: text('reset') }).click();
  await expect.poll(() => content.evaluate((element) => getComputedStyle(element).transform)).toBe('matrix(1, 0, 0, 1, 0, 0)');

  // One character of the link changed: the page says the link is not valid, and shows no image.
  const changed = new URL(address, 'http://portal.invalid');
  const token = changed.searchParams.get('token') ?? '';
  const at = Math.floor(token.length / 2);
  changed.searchParams.set('token', `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`);
  await page.goto(`${changed.pathname}${changed.search}`);
  await expect(page.getByRole('alert')).toHaveText(text('linkProblem'));
  await expect(page.locator('img.pp-demo-viewer-image')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/demo-viewer (changed link)');
});
