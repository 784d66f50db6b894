import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { t } from './helpers/i18n';
import { pauseClockAfterActivity } from './helpers/clock';
import { signIn } from './helpers/sign-in';

/**
 * The web app inside the kiosk app (docs/rules/kiosk.md#bridge), against a fake bridge in Chromium: a `window.kiosk`
 * installed before the page runs, shaped as src-contract/kiosk-bridge.ts, recording its calls.
 * The identity shown comes from the bridge; hardware idle opens the inactivity dialog; a locked
 * screen ends the visit at once; ending a session asks the app to wipe it (endPatientSession).
 */

declare global {
  interface Window {
    __pushIdle?: (change: { idleSeconds: number; reason: string }) => void;
    __recordBridgeCall: (name: string) => Promise<void>;
  }
}

/** Installs the fake bridge on every document of the page; its calls are counted here, across navigations. */
async function installFakeBridge(page: Page): Promise<Record<string, number>> {
  const counted: Record<string, number> = {};
  await page.exposeFunction('__recordBridgeCall', (name: string) => {
    counted[name] = (counted[name] ?? 0) + 1;
  });
  await page.addInitScript(() => {
    const ok = <T>(value: T) => Promise.resolve({ ok: true as const, value });
    Object.defineProperty(window, 'kiosk', {
      value: Object.freeze({
        getAppInfo: () => ok({ version: '9.9.9-test', platform: 'linux' }),
        getKioskIdentity: () => ok({ name: 'Bridge lobby 7', clinicSlug: 'parramatta', clinicName: 'Bridge Test Clinic', enrolled: true }),
        getSystemIdleSeconds: () => ok(0),
        onIdleChange: (listener: (change: { idleSeconds: number; reason: string }) => void) => {
          window.__pushIdle = listener;
          return () => (window.__pushIdle = undefined);
        },
        endPatientSession: async () => {
          await window.__recordBridgeCall('endPatientSession');
          return { ok: true as const, value: null };
        },
        reportPatientActivity: async () => {
          await window.__recordBridgeCall('reportPatientActivity');
          return { ok: true as const, value: null };
        },
      }),
    });
  });
  return counted;
}

const pushIdle = (page: Page, idleSeconds: number, reason = 'tick') =>
  page.evaluate(({ idleSeconds, reason }) => window.__pushIdle?.({ idleSeconds, reason }), { idleSeconds, reason });

async function patientSignedIn(page: Page, email: string): Promise<void> {
  const patient = { dateOfBirth: '1950-07-21', email };
  const booking = await bookFresh(page.request, patient);
  await page.clock.install();
  // No kioskMode query: the bridge alone turns kiosk mode on.
  await page.goto(`/appointments/${booking.key}`);
  await signIn(page, patient);
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  await expect.poll(async () => page.evaluate(() => typeof window.__pushIdle)).toBe('function');
  await pauseClockAfterActivity(page);
}

test('the kiosk home shows the identity the kiosk app gives, with no code to type', async ({ page }) => {
  await installFakeBridge(page);
  await page.goto('/kiosk');
  await expect(page.getByText('Bridge Test Clinic')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel(t('kiosk.enroll.label'))).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'kiosk home in the app');
});

test('hardware idle opens the inactivity dialog, and its end asks the app to end the patient session', async ({ page }) => {
  const counted = await installFakeBridge(page);
  await patientSignedIn(page, 'bridge.idle@example.com');
  await page.mouse.move(120, 200);
  await expect.poll(() => counted.reportPatientActivity ?? 0).toBeGreaterThan(0);

  // The page saw nothing for a moment, but the machine has been idle for 95 s: the countdown opens now.
  await pushIdle(page, 95);
  const dialog = page.getByRole('alertdialog', { name: t('kiosk.inactivityTitle') });
  await expect(dialog).toBeVisible();
  // A hardware report of 0 forever would never shorten or stop the page's own timer.
  await pushIdle(page, 0);
  await expect(dialog).toBeVisible();
  await page.clock.fastForward(10_000);
  await expect(page).toHaveURL(/\/kiosk\?kioskMode=true$/);
  expect(counted.endPatientSession).toBe(1);
});

test('a locked screen ends the visit at once through the app', async ({ page }) => {
  const counted = await installFakeBridge(page);
  await patientSignedIn(page, 'bridge.lock@example.com');
  const ended = page.waitForURL(/\/kiosk\?kioskMode=true$/);
  await pushIdle(page, 0, 'lock-screen');
  await ended;
  expect(counted.endPatientSession).toBe(1);
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
});
