import { expect, test, type Page } from '@playwright/test';
import { ENROLLMENT_CODE_PATTERN, KIOSK_MESSAGES } from '@contract/api/kiosks';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { DEMO_KIOSK_ADMIN, DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * The staff kiosk page (docs/rules/kiosk.md#enrollment) against the real server: a kiosk
 * administrator adds a kiosk, a second browser enrolls it with the code read from the page, the
 * page shows it enrolled and seen, and after revoking it the kiosk is refused at once. The kiosks
 * are an antd table (name, clinic, status, last seen, actions) at 1440x900; the code just issued
 * is in its row with a copy button that puts it on the clipboard and says so.
 */
test.use({ ignoreHTTPSErrors: true });

/** A same-origin call from a page, with that browser's cookies (the kiosk's token cookie among them). */
async function call(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { method, path, body },
  );
}

async function signInOnPage(page: Page, account: typeof DEMO_STAFF): Promise<void> {
  await page.goto('/staff/kiosks');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(t('staffKiosks.signInNeeded'), { timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (signed out)');
  await signInThroughPopup(page, () => alert.getByRole('button', { name: t('staffKiosks.signIn') }).click(), account);
}

test('a kiosk administrator adds a kiosk, it enrolls and is seen, and revoking it refuses it at once', async ({
  page,
  browser,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOnPage(page, DEMO_KIOSK_ADMIN);
  const table = page.getByRole('table', { name: new RegExp(`^${t('staffKiosks.list.heading')}`) });
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader')).toHaveText([
    t('staffKiosks.list.name'),
    t('staffKiosks.list.clinic'),
    t('staffKiosks.kiosk.state'),
    t('staffKiosks.kiosk.lastSeen'),
    t('staffKiosks.list.actions'),
  ]);
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (list)');

  // The name rule, before anything is sent.
  await page.getByRole('button', { name: t('staffKiosks.add.submit') }).click();
  await expect(page.getByText(KIOSK_MESSAGES.name)).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (name refused)');

  const name = `E2E lobby ${Date.now().toString(36)}`;
  await page.getByLabel(t('staffKiosks.add.name')).fill(name);
  await page.getByLabel(t('staffKiosks.add.clinic')).selectOption({ label: 'Parramatta' });
  await page.getByRole('button', { name: t('staffKiosks.add.submit') }).click();
  const code = (await page.getByTestId('staff-kiosk-code').textContent()) ?? '';
  expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  expect(code).toMatch(ENROLLMENT_CODE_PATTERN);
  await expect(page.getByText(t('staffKiosks.code.once'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (code shown)');

  const kioskRow = table.getByRole('row', { name: new RegExp(name) });
  await expect(kioskRow).toContainText(t('staffKiosks.kiosk.statePending'));
  // Its clinic in its own column; the code in its row, copied by the row's own button.
  await expect(kioskRow.getByRole('cell').nth(1)).toHaveText('Parramatta');
  await expect(kioskRow).toContainText(code);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await kioskRow.getByRole('button', { name: t('staffKiosks.code.copyFor', { name }) }).click();
  await expect(kioskRow.getByRole('status')).toHaveText(t('staffKiosks.code.copied'));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  // The kiosk: a browser of its own, enrolled with the code (lower case and without the dash work too).
  const kioskContext = await browser.newContext({ baseURL });
  const kiosk = await kioskContext.newPage();
  await kiosk.goto('/api/health');
  const enrolled = await call(kiosk, 'POST', '/api/kiosk/enroll', { code: code.replace('-', '').toLowerCase() });
  expect(enrolled).toEqual({ status: 200, body: { name, clinicSlug: 'parramatta', clinicName: 'Parramatta' } });
  expect((await call(kiosk, 'GET', '/api/kiosk/me')).status).toBe(200);
  // The code worked once.
  expect((await call(kiosk, 'POST', '/api/kiosk/enroll', { code })).status).toBe(400);
  // The kiosk app's heartbeat (docs/rules/kiosk.md#fleet), as its main process sends it.
  const heartbeat = {
    appVersion: '9.8.7',
    uptimeSeconds: 7_500,
    lastCrash: { at: new Date(Date.now() - 30 * 60_000).toISOString(), reason: 'renderer gone: crashed' },
    lastPatientActivityAt: new Date(Date.now() - 60_000).toISOString(),
    lastOfflineAt: null,
  };
  expect((await call(kiosk, 'POST', '/api/kiosk/heartbeat', heartbeat)).status).toBe(204);

  await page.reload();
  await expect(kioskRow).toContainText(t('staffKiosks.kiosk.stateEnrolled'), { timeout: 20_000 });
  // Enrolled at (the first fact) and last seen (its column): times, not "Never".
  const enrolledAt = kioskRow.locator('dd').first();
  await expect(enrolledAt).toContainText(/\d{1,2}:\d{2}/);
  const lastSeen = kioskRow.getByRole('cell').nth(3);
  await expect(lastSeen).not.toHaveText(t('staffKiosks.kiosk.never'));
  await expect(lastSeen).toContainText(/\d{1,2}:\d{2}/);
  await expect(kioskRow).toContainText('9.8.7');
  await expect(kioskRow).toContainText('2 hours');
  await expect(kioskRow).toContainText('renderer gone: crashed');
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (enrolled)');

  await kioskRow.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Revoke ${name}?` });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (revoke dialog)');
  await dialog.getByRole('button', { name: t('staffKiosks.revoke.yes') }).click();
  await expect(dialog).toBeHidden();
  await expect(kioskRow).toContainText(t('staffKiosks.kiosk.stateRevoked'));
  await expect(kioskRow.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `${name} is revoked.` })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (revoked)');

  const refused = await call(kiosk, 'GET', '/api/kiosk/me');
  expect(refused.status).toBe(401);
  expect(refused.body).toMatchObject({ code: 'kiosk_not_enrolled' });

  // Still revoked after a reload: the server's state, not the page's.
  await page.reload();
  await expect(kioskRow).toContainText(t('staffKiosks.kiosk.stateRevoked'), { timeout: 20_000 });
  await kioskContext.close();
});

test('a staff member without the kiosk administrator role is told so', async ({ page }) => {
  await signInOnPage(page, DEMO_STAFF);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(t('staffKiosks.roleNeeded'), { timeout: 20_000 });
  await expect(page.getByLabel(t('staffKiosks.add.name'))).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/staff/kiosks (role needed)');
});
