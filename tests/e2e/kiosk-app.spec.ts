import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
// @ts-expect-error -- a plain ESM script shared with `npm run kiosk`; it has no type declarations.
import { installedElectronBinary } from '../../scripts/electron-binary.mjs';
import { t } from './helpers/i18n';
import { kioskAdmin, staffPost, type NewKiosk } from './helpers/kiosk-admin';
import { portalOrigin } from './helpers/servers';

/**
 * The real kiosk app (docs/rules/kiosk.md#enrollment-in-the-kiosk-app) through Playwright's Electron support, against the e2e portal:
 * provisioned with a file holding a one-time code, it enrolls by itself (main exchanges the code
 * and keeps the token with safeStorage), removes the code from the file, and shows the kiosk's
 * clinic; the identity check works through main's token header; revoking the kiosk on the server
 * brings up the "enrolled again" screen. Where the OS cannot store the token safely (Linux with
 * no keyring: basic_text), the app must refuse and keep the code unspent instead.
 *
 * Skipped, with the reason, where the Electron binary is not installed (it cannot be downloaded
 * on our CI machines) or where Linux has no display to open a window on.
 */

const projectRoot = path.resolve(import.meta.dirname, '../..');
const binary = (installedElectronBinary as (dir: string) => string | null)(path.join(projectRoot, 'node_modules', 'electron'));
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

test.skip(
  !binary,
  'the Electron binary is not installed (node_modules/electron/dist); run node scripts/electron-binary.mjs where Electron releases can be reached',
);
test.skip(noDisplay, 'no display for the kiosk window (set DISPLAY, e.g. run under xvfb-run)');

/** The e2e run's environment for the app, pointed at the provisioning file alone (no portal override). */
function kioskEnv(configFile: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && name !== 'KIOSK_PORTAL_URL') env[name] = value;
  return { ...env, KIOSK_CONFIG_FILE: configFile };
}

test('the kiosk app enrolls from its provisioning file, checks identities through main, and asks to be enrolled again once revoked', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  expect(spawnSync('npx', ['electron-vite', 'build'], { cwd: projectRoot, stdio: 'inherit', timeout: 180_000 }).status).toBe(0);

  const admin = await kioskAdmin(browser);
  const added = await staffPost<NewKiosk>(admin, '/api/staff/kiosks', { name: `Electron lobby ${Date.now()}`, clinicSlug: 'parramatta' });
  const workDir = mkdtempSync(path.join(tmpdir(), 'kiosk-app-'));
  const configFile = path.join(workDir, 'kiosk.json');
  writeFileSync(configFile, JSON.stringify({ portalUrl: portalOrigin, clinicSlug: 'parramatta', enrollmentCode: added.code }, null, 2));

  let app: ElectronApplication | null = null;
  try {
    app = await electron.launch({
      executablePath: binary as string,
      args: [projectRoot, `--user-data-dir=${path.join(workDir, 'user-data')}`],
      env: kioskEnv(configFile),
    });
    const window = await app.firstWindow();
    const refused = window.getByText(/cannot store the kiosk's credential securely/);
    const welcome = window.getByRole('button', { name: t('kiosk.welcome.submit') });
    await expect(refused.or(welcome).first()).toBeVisible({ timeout: 60_000 });

    if (await refused.isVisible()) {
      // No safe place for the token: nothing stored, and the code is still there to use later.
      expect(JSON.parse(readFileSync(configFile, 'utf8')).enrollmentCode).toBe(added.code);
      expect(existsSync(path.join(workDir, 'user-data', 'kiosk-token.bin'))).toBe(false);
      return;
    }

    expect(new URL(window.url()).pathname).toBe('/kiosk');
    expect(JSON.parse(readFileSync(configFile, 'utf8')).enrollmentCode).toBeUndefined();
    await expect(window.getByText('Parramatta').first()).toBeVisible();
    // Page JavaScript never sees the token: no cookie of it, no field for a code.
    expect(await window.evaluate(() => document.cookie)).not.toContain('portal_kiosk');
    await expect(window.getByLabel(t('kiosk.enroll.label'))).toHaveCount(0);

    // The identity check needs the kiosk token, which only main adds.
    await window.getByLabel(t('kiosk.welcome.lastName')).fill('Nobody');
    await window.getByLabel(t('kiosk.welcome.day')).fill('1');
    await window.getByLabel(t('kiosk.welcome.month')).fill('1');
    await window.getByLabel(t('kiosk.welcome.year')).fill('1950');
    await welcome.click();
    await expect(window.getByText(t('kiosk.identity.notFound'))).toBeVisible();

    await staffPost(admin, `/api/staff/kiosks/${added.kiosk.id}/revoke`, {});
    await welcome.click();
    await expect(window.getByText('This kiosk needs to be enrolled again. Please ask staff.')).toBeVisible({ timeout: 30_000 });
  } finally {
    await app?.close();
    rmSync(workDir, { recursive: true, force: true });
  }
});
