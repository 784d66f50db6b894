import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { chooseRadio } from './helpers/questionnaires';

/**
 * The REDIRECT outcome (docs/rules/questionnaires.md#redirect-countdown: 5 s ticking
 * every 1 s): the demo's screening mammogram asks about breast symptoms, and a Yes sends the
 * patient to the contact page (resources/demo-provider/questionnaires.json, mammogram-symptoms).
 * The booking stays on the exam choice; the dialog counts down and goes; "Stay on this page"
 * stops it. At phone and desktop sizes, axe on the open dialog.
 */

type Catalogue = { [key: string]: string | Catalogue };
const texts = JSON.parse(readFileSync(join(process.cwd(), 'src-web/i18n/locales/en/questionnaires.json'), 'utf8')) as Catalogue;

function qt(key: string): string {
  let node: string | Catalogue | undefined = texts;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`No English text for '${key}'`);
  return node;
}

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
];

async function answerSymptoms(page: Page, answer: 'Yes' | 'No'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Breast symptoms check' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await chooseRadio(dialog, /new lump/, answer);
  await dialog.getByRole('button', { name: 'Complete', exact: true }).click();
}

async function chooseScreeningMammogram(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill('Screening mammogram');
  await page.getByRole('checkbox', { name: /^Screening mammogram\b/ }).check();
  await page.getByRole('button', { name: t('action.continue') }).click();
}

for (const size of SIZES) {
  test(`symptoms before a screening mammogram: the countdown names where, may be stopped, and goes at 0 (${size.name})`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    // The page's clock runs at real speed until paused, so a slow axe run cannot run the countdown out.
    await page.clock.install();
    await chooseScreeningMammogram(page);
    await answerSymptoms(page, 'Yes');

    const countdown = page.getByRole('alertdialog', { name: qt('questionnaire.redirectTitle') });
    await expect(countdown).toBeVisible();
    await expect(countdown.getByText(qt('questionnaire.redirectTextHere'))).toBeVisible();
    await page.clock.pauseAt(new Date(Date.now() + 100));
    const seconds = countdown.locator('[data-redirect-seconds]');
    const left = Number(await seconds.getAttribute('data-redirect-seconds'));
    expect(left).toBeGreaterThanOrEqual(4);
    await expect(seconds).toHaveText(new RegExp(`in ${left} seconds?\\.$`));
    await expect(countdown.getByRole('button', { name: qt('questionnaire.redirectNow') })).toBeFocused();
    // It ticks once a second.
    await page.clock.runFor(1_000);
    await expect(seconds).toHaveText(new RegExp(`in ${left - 1} seconds?\\.$`));

    // Stay: the countdown stops and the booking stays on the exam choice, nothing followed.
    await countdown.getByRole('button', { name: qt('questionnaire.redirectStay') }).click();
    await expect(countdown).toBeHidden();
    await page.clock.resume();
    await page.waitForTimeout(5_500);
    await expect(page).toHaveURL(/\/$|\/\?/);
    await expect(page.getByRole('checkbox', { name: /^Screening mammogram\b/ })).toBeChecked();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Continue again: the answered questionnaire's outcome still applies; this time the countdown runs out.
    await page.getByRole('button', { name: t('action.continue') }).click();
    await expect(countdown).toBeVisible({ timeout: 15_000 });
    const shownAt = Date.now();
    // axe runs on timers of its own, so at real speed: it takes a second or two of the five.
    await expectNoSeriousA11yViolations(page, `redirect countdown (${size.name})`);
    await expect(page).toHaveURL(/\/contact$/, { timeout: 8_000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(3_500);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
}

test('no symptoms: no countdown, the booking goes on to the clinic and time', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await chooseScreeningMammogram(page);
  await answerSymptoms(page, 'No');
  await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('alertdialog', { name: qt('questionnaire.redirectTitle') })).toHaveCount(0);
});
