import type { Server } from 'node:http';
import { expect, test, type FrameLocator, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { MINIMAL_PDF, referralPhoto } from './helpers/files';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { dismissConsentNotice } from './helpers/consent-notice';
import { t } from './helpers/i18n';
import { EMBED_PARENT_PORT, startParentSite } from './helpers/servers';
import { signIn } from './helpers/sign-in';

/**
 * Documents on a phone (docs/rules/attachments.md#the-web-app): a patient at 375 x 667 with a touch screen adds a referral
 * photo on the appointment page, sees it, zooms it by keyboard, double tap and pinch, replaces it
 * with a PDF and downloads that; the same upload inside /iframe. Real server, real Chromium,
 * axe on every step and dialog. Each test books its own appointment (xr-chest asks for a referral).
 */

test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

type Surface = Page | FrameLocator;

async function openAppointment(surface: Surface, patient: { dateOfBirth: string; email: string }): Promise<Locator> {
  await signIn(surface, patient);
  await expect(surface.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  await dismissConsentNotice(surface);
  const section = surface.getByRole('region', { name: t('attachments.title') });
  await expect(section.getByRole('heading', { level: 3, name: 'Referral' })).toBeVisible();
  return section;
}

/** Picks a file through the browser's own chooser, as a patient tapping the button does. */
async function chooseFile(page: Page, button: Locator, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** The zoom scale react-zoom-pan-pinch applied to the image (its transform's matrix). */
async function scaleOf(viewer: Locator): Promise<number> {
  const transform = await viewer.locator('.pp-att-zoom-content').evaluate((element) => getComputedStyle(element).transform);
  if (transform === 'none') return 1;
  return Number(/matrix\(([^,]+)/.exec(transform)?.[1] ?? '1');
}

/** The zoom once its 200 ms animation has ended (two reads a quarter second apart agree). */
async function settledScaleOf(viewer: Locator): Promise<number> {
  for (;;) {
    const before = await scaleOf(viewer);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const after = await scaleOf(viewer);
    if (after === before) return after;
  }
}

/** Two fingers moving apart over the image, through Chromium's touch input. */
async function pinchOut(page: Page, target: Locator): Promise<void> {
  const box = (await target.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints:
        type === 'touchEnd'
          ? []
          : [
              { x: x - spread, y, id: 1 },
              { x: x + spread, y, id: 2 },
            ],
    });
  await touch('touchStart', 20);
  for (let spread = 30; spread <= 120; spread += 10) await touch('touchMove', spread);
  await touch('touchEnd', 0);
  await cdp.detach();
}

test('a patient adds a referral photo on a phone, zooms it by keyboard, double tap and pinch, replaces it with a PDF and downloads it', async ({
  page,
  request,
}) => {
  // An upload, three kinds of zoom, a replacement and a download: near a minute on a loaded machine.
  test.slow();
  const patient = { dateOfBirth: '1988-02-17', email: 'ava.documents@example.com' };
  const booking = await bookFresh(request, patient, 'xr-chest');
  await page.goto(`/appointments/${booking.key}`);
  const section = await openAppointment(page, patient);
  await expect(section.getByText(t('attachments.requested.missing')).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'documents section');

  await chooseFile(page, section.getByRole('button', { name: t('attachments.chooseLabel', { title: 'Referral' }) }), {
    name: 'IMG_0042.JPG',
    mimeType: 'image/jpeg',
    buffer: await referralPhoto(),
  });
  await expect(section.getByText(t('attachments.notice.uploaded', { fileName: 'IMG_0042.JPG' }))).toBeVisible();
  await expect(section.getByText(t('attachments.requested.uploaded', { fileName: 'IMG_0042.jpg' }))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'after the upload');

  await section.getByRole('button', { name: t('attachments.list.view', { fileName: 'IMG_0042.jpg' }) }).click();
  const viewer = page.getByRole('dialog', { name: t('attachments.viewer.title') });
  const image = viewer.getByRole('img', { name: 'Referral: IMG_0042.jpg' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(1200);
  await expectNoSeriousA11yViolations(page, 'viewer');
  // What the browser received has no camera and no GPS position.
  const served = await page.request.get((await image.getAttribute('src'))!);
  expect(served.status()).toBe(200);
  const bytes = await served.body();
  expect(bytes.includes(Buffer.from('Secret Phone'))).toBe(false);
  expect((await sharp(bytes).metadata()).exif).toBeUndefined();

  // Keyboard: the image's frame takes focus; + zooms in, the reset button zooms out.
  const stage = viewer.getByRole('group', { name: 'Referral: IMG_0042.jpg' });
  await stage.focus();
  await page.keyboard.press('+');
  // Reset once the zoom has ended, as a patient who watches it would.
  await expect.poll(() => settledScaleOf(viewer)).toBeGreaterThan(1);
  await viewer.getByRole('button', { name: t('attachments.viewer.reset') }).click();
  await expect.poll(() => scaleOf(viewer)).toBe(1);

  // Double tap zooms to 2; pinching zooms further.
  const box = (await stage.boundingBox())!;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(() => settledScaleOf(viewer)).toBeCloseTo(2, 1);
  await viewer.getByRole('button', { name: t('attachments.viewer.reset') }).click();
  await expect.poll(() => scaleOf(viewer)).toBe(1);
  await pinchOut(page, stage);
  await expect.poll(() => scaleOf(viewer)).toBeGreaterThan(1.2);
  await viewer.getByRole('button', { name: t('attachments.viewer.close') }).click();
  await expect(viewer).toHaveCount(0);

  // Replace the photo with a PDF, then download it.
  await chooseFile(page, section.getByRole('button', { name: t('attachments.replaceLabel', { title: 'Referral' }) }), {
    name: 'referral.pdf',
    mimeType: 'application/pdf',
    buffer: MINIMAL_PDF,
  });
  await expect(section.getByText(t('attachments.notice.replaced', { fileName: 'referral.pdf' }))).toBeVisible();
  await expect(section.getByText(t('attachments.requested.uploaded', { fileName: 'referral.pdf' }))).toBeVisible();
  await section.getByRole('button', { name: t('attachments.list.view', { fileName: 'referral.pdf' }) }).click();
  const pdfViewer = page.getByRole('dialog', { name: t('attachments.viewer.title') });
  await expectNoSeriousA11yViolations(page, 'viewer with a PDF');
  const download = page.waitForEvent('download');
  await pdfViewer.getByRole('link', { name: t('attachments.viewer.download', { fileName: 'referral.pdf' }) }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('referral.pdf');
  await pdfViewer.getByRole('button', { name: t('attachments.viewer.close') }).click();

  await section.getByRole('button', { name: t('attachments.list.info', { fileName: 'referral.pdf' }) }).click();
  const info = page.getByRole('dialog', { name: t('attachments.info.title') });
  await expect(info.getByText('referral.pdf')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'document information');
});

test.describe('inside a provider frame', () => {
  // The provider's page frames the portal at 900 x 700 (tests/e2e/helpers/servers.ts): a desktop window.
  test.use({ viewport: { width: 1280, height: 900 }, hasTouch: false });
  let parent: Server | null = null;
  test.afterEach(async () => {
    await new Promise<void>((resolve) => (parent ? parent.close(() => resolve()) : resolve()));
    parent = null;
  });

  test('a patient adds a referral inside /iframe', async ({ page, request }) => {
    const patient = { dateOfBirth: '1991-07-09', email: 'noor.documents@example.com' };
    const booking = await bookFresh(request, patient, 'xr-chest');
    parent = await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', `/iframe/appointments/${booking.key}`);
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    const section = await openAppointment(frame, patient);
    await chooseFile(page, section.getByRole('button', { name: t('attachments.chooseLabel', { title: 'Referral' }) }), {
      name: 'referral.pdf',
      mimeType: 'application/pdf',
      buffer: MINIMAL_PDF,
    });
    await expect(section.getByText(t('attachments.requested.uploaded', { fileName: 'referral.pdf' }))).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/iframe documents');
  });
});
