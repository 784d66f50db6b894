import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';

/** /deny explains why a page cannot open, for every rule in docs/rules/patient-access.md#deny-page. */

const cases: Array<{ query: string; expected: string }> = [
  { query: 'status=EXPIRED', expected: t('deny.expired') },
  { query: 'status=CANCELED', expected: t('deny.canceled') },
  { query: 'status=DECLINED_BY_PATIENT', expected: t('deny.declined') },
  { query: 'status=ON_HOLD', expected: t('deny.waitingForProtocol') },
  { query: 'revoked=true', expected: t('deny.revoked') },
  { query: 'maxAttempts=true', expected: t('message.max_attempts_reached') },
  { query: 'maxAttempts=true&message=max_attempts_reached_shared', expected: t('message.max_attempts_reached_shared') },
  { query: 'resultsExpired=true', expected: t('deny.resultsExpired') },
  {
    query: 'customMessage=' + encodeURIComponent('Please call the clinic on 02 9000 0000.'),
    expected: 'Please call the clinic on 02 9000 0000.',
  },
  { query: '', expected: t('deny.generic') },
];

for (const { query, expected } of cases) {
  test(`/deny?${query} shows "${expected.slice(0, 40)}…"`, async ({ page }) => {
    await page.goto(`/deny?${query}`);
    const heading = query === 'status=ON_HOLD' ? t('deny.waitingTitle') : t('deny.title');
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('p.pp-deny-message')).toHaveText(expected);
  });
}

test('a booking held for review says its time stays reserved and leads to the clinic to change it', async ({ page }) => {
  await page.goto('/deny?status=ON_HOLD');
  await expect(page.getByText(t('deny.waitingMeanwhile'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'deny (held for review)');
  await page.getByRole('link', { name: t('deny.waitingContact') }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('contact.title') })).toBeVisible();
});

test('a custom message is shown as text, never run as HTML', async ({ page }) => {
  const attack = '<img src=x onerror="window.__pwned=1">Call us';
  await page.goto(`/deny?customMessage=${encodeURIComponent(attack)}`);
  await expect(page.locator('p.pp-deny-message')).toHaveText(attack);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('p.pp-deny-message img').count()).toBe(0);
});

test('the deny page offers Continue to a same-site redirect and a Close control', async ({ page }) => {
  await page.goto('/deny?status=EXPIRED&showClose=true&redirectUrl=%2Fcontact');
  await expect(page.getByRole('button', { name: t('action.close'), exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'deny with controls');
  await page.getByRole('link', { name: t('deny.continue') }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('contact.title') })).toBeVisible();
});

test('a redirect to another site is not offered', async ({ page }) => {
  await page.goto('/deny?status=EXPIRED&redirectUrl=' + encodeURIComponent('https://evil.example/phish'));
  await expect(page.locator('p.pp-deny-message')).toHaveText(t('deny.expired'));
  await expect(page.getByRole('link', { name: t('deny.continue') })).toHaveCount(0);
});
