import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';
import { E2E_PACS_PORTAL, E2E_SIGNED_LINK_KEYS } from './tests/e2e/helpers/servers';

const port = Number(process.env.E2E_PORT ?? 4310);
export const baseURL = `http://127.0.0.1:${port}`;
/** A second origin that the e2e server lets frame the portal (see tests/e2e/embedding.spec.ts). */
export const EMBED_PARENT_PORT = Number(process.env.E2E_EMBED_PORT ?? 4311);

const executablePath = findChromium() ?? undefined;

/** End-to-end journeys in Debian's Chromium against the real server and the built web app. */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-results.json' }]],
  outputDir: 'test-results/e2e-artifacts',
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // A trace records a screencast and DOM snapshots of every step of every journey: measured on
    // booking.spec.ts, 29% of the run's CPU. CI keeps only its printed log, so it records none;
    // a developer's run keeps the failing journeys' traces.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: { executablePath, args: CHROMIUM_ARGS } } }],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      E2E_PORT: String(port),
      EMBED_ORIGINS: `http://127.0.0.1:${EMBED_PARENT_PORT}`,
      LOG_LEVEL: 'warn',
      SIGNED_LINK_KEYS: E2E_SIGNED_LINK_KEYS,
      // An archive whose links go to its own PACS portal (tests/e2e/quick-report.spec.ts answers that address).
      IMAGE_REPOSITORY_SOURCES: `archive=PACS@${E2E_PACS_PORTAL}`,
    },
  },
});
