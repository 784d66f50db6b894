import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { bookingCodePayload } from '../../src-contract/booking-code';
import { browserWithCamera, bytesOfDataUrl, writeCameraVideo } from './helpers/fake-camera';
import { t } from './helpers/i18n';
import { kioskAdmin } from './helpers/kiosk-admin';
import { expectKioskScreen } from './helpers/kiosk-screen';
import { portalOrigin } from './helpers/servers';
import { codeFromMail } from './helpers/sign-in';

/**
 * The lobby kiosk as its users meet it (docs/rules/kiosk.md), in Chromium with touch at the three sizes the
 * kiosk is built for. At each size: IT adds the kiosk on /staff/kiosks and the kiosk enrolls by
 * scanning the printed sheet's QR code with its camera; a patient types name and date of birth on
 * the on-screen keyboard; another identifies by the booking QR code (the camera, or a scanner that
 * types); each gets the mailed one-time code, signs the consent form with a drawn stroke, checks
 * in, and Start again brings the next patient a fresh kiosk. Every screen is checked as the
 * patient meets it (helpers/kiosk-screen.ts). The demo patients are in
 * resources/demo-provider/appointments.json, 20 to 95 minutes after the seed.
 */

test.use({ ignoreHTTPSErrors: true });

interface Patient {
  firstName: string;
  lastName: string;
  day: string;
  month: string;
  year: string;
  bookingKey: string;
}

const patient = (firstName: string, lastName: string, dateOfBirth: string, bookingKey: string): Patient => {
  const [year = '', month = '', day = ''] = dateOfBirth.split('-');
  return { firstName, lastName, day: String(Number(day)), month: String(Number(month)), year, bookingKey };
};
const email = (person: Patient) => `${person.firstName.toLowerCase()}.${person.lastName.toLowerCase()}@example.com`;

const SIZES = [
  {
    size: '1080x1920',
    viewport: { width: 1080, height: 1920 },
    scan: 'camera' as const,
    typed: patient('Leo', 'Keyton', '1958-07-19', 'IQmQMmL7hxBdndP5JFwcVA'),
    scanned: patient('Nora', 'Scanwell', '1961-02-03', 'GKoTP34xc8_CWgb_081WTw'),
  },
  {
    size: '1920x1080',
    viewport: { width: 1920, height: 1080 },
    scan: 'wedge' as const,
    typed: patient('Max', 'Tapley', '1949-05-27', 'lWXTBKPsSMkVQjnO4VRBWA'),
    scanned: patient('Ivy', 'Wedgeworth', '1970-11-08', 'opv6VBhFTqVikOFkw_1ToA'),
  },
  {
    size: '1280x1024',
    viewport: { width: 1280, height: 1024 },
    scan: 'camera' as const,
    typed: patient('Theo', 'Typewell', '1966-12-01', 'PWVvuZB66S0fgCz3BD4GXA'),
    scanned: patient('Ruby', 'Camwell', '1988-09-14', 'Rc9w8tUyPNzOzPu6eFGLpg'),
  },
];

/** Taps the on-screen keyboard's keys for `text` (letters as shown on the keys: capitals). */
async function tapKeys(kiosk: Page, text: string): Promise<void> {
  const keyboard = kiosk.getByRole('group', { name: t('kiosk.keyboard.label') });
  await expect(keyboard).toBeVisible();
  for (const character of text.toUpperCase()) await keyboard.locator(`[data-skbtn="${character}"]`).tap();
}

async function tapNext(kiosk: Page): Promise<void> {
  await kiosk
    .getByRole('group', { name: t('kiosk.keyboard.label') })
    .locator('[data-skbtn="{next}"]')
    .tap();
}

/** The date of birth on the keypad: Day, Next, Month, Next, Year. */
async function tapDateOfBirth(kiosk: Page, person: Patient): Promise<void> {
  await kiosk.getByLabel(t('kiosk.welcome.day')).tap();
  await tapKeys(kiosk, person.day);
  await tapNext(kiosk);
  await tapKeys(kiosk, person.month);
  await tapNext(kiosk);
  await tapKeys(kiosk, person.year);
  await expect(kiosk.getByLabel(t('kiosk.welcome.year'))).toHaveValue(person.year);
}

/** From the one-time code to the kiosk home again: code, consent signed by a stroke, check-in, Start again. */
async function finishCheckIn(kiosk: Page, person: Patient, size: string): Promise<void> {
  const otp = kiosk.getByLabel(t('kiosk.otp.label'));
  await expect(otp).toBeVisible();
  const continueButton = kiosk.getByRole('button', { name: t('kiosk.otp.submit') });
  await expectKioskScreen(kiosk, `${size} one-time code`, continueButton);
  await otp.tap();
  await tapKeys(kiosk, await codeFromMail(email(person)));
  await continueButton.tap();

  // Each unsigned consent form, signed with a finger.
  const pad = kiosk.getByRole('img', { name: t('kiosk.consent.padLabel') }).or(kiosk.getByLabel(t('kiosk.consent.padLabel')));
  await expect(pad.first()).toBeVisible();
  const sign = kiosk.getByRole('button', { name: t('kiosk.consent.sign') });
  await expectKioskScreen(kiosk, `${size} consent`, sign);
  await expect(sign).toBeDisabled();
  const box = await pad.first().boundingBox();
  if (box === null) throw new Error('the signature pad has no box');
  await kiosk.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.6);
  await kiosk.mouse.down();
  for (let step = 1; step <= 12; step += 1) {
    await kiosk.mouse.move(box.x + box.width * (0.2 + step * 0.05), box.y + box.height * (0.6 - Math.sin(step / 2) * 0.25));
  }
  await kiosk.mouse.up();
  await expect(sign).toBeEnabled();
  await sign.tap();

  // Questionnaires due before the visit (if any) and the feedback: left for the desk, skipped.
  const confirm = kiosk.getByRole('button', { name: t('kiosk.confirm.submit'), exact: true });
  const atDesk = kiosk.getByRole('button', { name: t('kiosk.questionnaires.atDesk') });
  const skipFeedback = kiosk.getByRole('button', { name: t('kiosk.feedback.skip') });
  for (let round = 0; round < 4 && !(await confirm.isVisible()); round += 1) {
    await expect(confirm.or(atDesk).or(skipFeedback).first()).toBeVisible({ timeout: 15_000 });
    if (await atDesk.isVisible()) await atDesk.tap();
    else if (await skipFeedback.isVisible()) {
      // The feedback survey opens above its step by itself; closing it is skipping it.
      const survey = kiosk.getByRole('dialog', { name: t('kiosk.feedback.heading') });
      await expect(survey).toBeVisible({ timeout: 15_000 });
      await expectKioskScreen(kiosk, `${size} feedback`, survey.getByRole('button', { name: t('action.close') }));
      await survey.getByRole('button', { name: t('action.close') }).tap();
    }
  }
  await expect(kiosk.getByRole('heading', { name: t('kiosk.confirm.heading') })).toBeVisible();
  await expectKioskScreen(kiosk, `${size} confirm`, confirm);
  await confirm.tap();

  const done = kiosk
    .getByRole('heading', { name: t('kiosk.complete.heading') })
    .or(kiosk.getByRole('heading', { name: t('kiosk.success.heading') }));
  await expect(done).toBeVisible({ timeout: 30_000 });
  const startAgain = kiosk.getByRole('button', { name: t('kiosk.shell.startAgain') });
  await expectKioskScreen(kiosk, `${size} checked in`, startAgain);
  // The consent is signed: the checklist no longer asks for it.
  await expect(kiosk.getByText(/consent form/i)).toHaveCount(0);
  await startAgain.tap();
  await expect(kiosk).toHaveURL(/\/kiosk\?kioskMode=true$/);
  await expect(kiosk.getByRole('heading', { name: t('kiosk.welcome.heading') })).toBeVisible();
}

async function kioskContext(
  browser: Browser,
  viewport: { width: number; height: number },
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
) {
  return browser.newContext({
    viewport,
    hasTouch: true,
    permissions: ['camera'],
    ignoreHTTPSErrors: true,
    baseURL: test.info().project.use.baseURL,
    storageState,
  });
}

for (const { size, viewport, scan, typed, scanned } of SIZES) {
  test(`the kiosk at ${size}: enrolled from the sheet's QR code, one patient typed on the on-screen keyboard, one by the booking QR code (${scan}), each signs and checks in`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const videos = mkdtempSync(join(tmpdir(), 'kiosk-camera-'));

    // IT adds the kiosk and prints the sheet: its QR code is what the kiosk's camera will see.
    const admin = await kioskAdmin(browser);
    await admin.goto('/staff/kiosks');
    await admin.getByLabel(t('staffKiosks.add.name')).fill(`Journey ${size} ${Date.now()}`);
    await admin.getByLabel(t('staffKiosks.add.clinic')).selectOption('parramatta');
    await admin.getByRole('button', { name: t('staffKiosks.add.submit') }).click();
    const sheetQr = admin.locator('.pp-enrollment-sheet img');
    await expect(sheetQr).toHaveAttribute('src', /^data:image\/svg\+xml/);
    // Copy code puts the code on the clipboard, for a remote session to the kiosk.
    await admin.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await admin.getByRole('button', { name: t('staffKiosks.code.copy') }).click();
    await expect(admin.getByText(t('staffKiosks.code.copied'))).toBeVisible();
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(await admin.getByTestId('staff-kiosk-code').textContent());
    const enrollVideo = join(videos, 'enrollment-sheet.y4m');
    await writeCameraVideo(bytesOfDataUrl((await sheetQr.getAttribute('src')) ?? ''), enrollVideo);

    const lobby = await browserWithCamera(enrollVideo);
    try {
      const kiosk = await (await kioskContext(lobby, viewport)).newPage();
      await kiosk.goto('/kiosk?kioskMode=true');
      const scanSheet = kiosk.getByRole('button', { name: t('kiosk.enroll.scan') });
      await expectKioskScreen(kiosk, `${size} enrollment`, scanSheet);
      await scanSheet.tap();
      const welcome = kiosk.getByRole('heading', { name: t('kiosk.welcome.heading') });
      await expect(welcome).toBeVisible({ timeout: 20_000 });
      const checkIn = kiosk.getByRole('button', { name: t('kiosk.welcome.submit'), exact: true });
      await expectKioskScreen(kiosk, `${size} home`, checkIn);

      // The first patient types on the kiosk's own keyboard.
      await kiosk.getByLabel(t('kiosk.welcome.lastName')).tap();
      await tapKeys(kiosk, typed.lastName);
      await expect(kiosk.getByLabel(t('kiosk.welcome.lastName'))).toHaveValue(typed.lastName);
      await expectKioskScreen(kiosk, `${size} typing the last name`, kiosk.getByLabel(t('kiosk.welcome.lastName')));
      await tapDateOfBirth(kiosk, typed);
      await tapNext(kiosk);
      await checkIn.tap();
      await finishCheckIn(kiosk, typed, size);

      // The second patient has the booking code.
      let scanning = kiosk;
      let cameraBrowser: Browser | null = null;
      if (scan === 'wedge') {
        // A USB scanner types the code's text and Enter, faster than anyone types: one burst of key
        // events inside the page. Playwright's own keys each cross the DevTools connection, and on a
        // loaded machine one gap over the reader's 50 ms split the code in two (the timing rule has
        // its own unit tests, tests/web/features/kiosk-scan).
        await kiosk.evaluate(
          (text) => {
            const target = document.activeElement ?? document.body;
            for (const key of [...text, 'Enter'])
              target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
          },
          bookingCodePayload(portalOrigin, scanned.bookingKey),
        );
      } else {
        const bookingVideo = join(videos, 'booking-code.y4m');
        await writeCameraVideo(await bookingQrPng(scanned.bookingKey), bookingVideo);
        const state = await kiosk.context().storageState();
        cameraBrowser = await browserWithCamera(bookingVideo);
        scanning = await (await kioskContext(cameraBrowser, viewport, state)).newPage();
        await scanning.goto('/kiosk?kioskMode=true');
        await scanning.getByRole('button', { name: t('kioskScan.entry.scan') }).tap();
      }
      try {
        const confirmDate = scanning.getByRole('heading', { name: t('kioskScan.identity.heading') });
        await expect(confirmDate).toBeVisible({ timeout: 20_000 });
        const go = scanning.getByRole('button', { name: t('kioskScan.identity.submit') });
        await expectKioskScreen(scanning, `${size} date of birth for the code`, go);
        await tapDateOfBirth(scanning, scanned);
        await tapNext(scanning);
        await go.tap();
        await finishCheckIn(scanning, scanned, size);
      } finally {
        await cameraBrowser?.close();
      }
    } finally {
      await lobby.close();
      await admin.context().close();
    }
  });
}

/** The booking code as the confirmation e-mail draws it (a PNG of the appointment link). */
async function bookingQrPng(bookingKey: string): Promise<Buffer> {
  const { toBuffer } = await import('qrcode');
  return toBuffer(bookingCodePayload(portalOrigin, bookingKey), { margin: 4, width: 400 });
}
