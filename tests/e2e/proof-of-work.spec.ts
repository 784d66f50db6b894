import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { codeFromMail, enterDateOfBirth } from './helpers/sign-in';

/**
 * The proof-of-work check in a real browser (docs/rules/security.md#proof-of-work-check): a
 * patient behind an address that has failed many sign-ins (a clinic, a hospital, a load
 * balancer) still signs in with the right answers. The server asks for the check; Chromium
 * fetches the challenge, solves it with WebCrypto and repeats the request, with nothing for the
 * patient to do. The shared address is stood for by X-Forwarded-For, which the e2e server trusts
 * from loopback (TRUST_PROXY in scripts/e2e-server.mjs); the address is this test's alone.
 */

/** resources/demo-provider/appointments.json; no other journey signs in to this booking. */
const EVELYN = { key: 'jlx0B3-koE9P5H7Alnmy8A', dateOfBirth: '1951-02-11', email: 'evelyn.example@example.com' };
/** docs/rules/patient-access.md: the address threshold of failures in 15 minutes. */
const ADDRESS_THRESHOLD = 20;

test('a patient behind an address with many failed sign-ins still signs in: the browser solves the check itself', async ({ browser }) => {
  const shared = `198.51.100.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': shared } });
  const page = await context.newPage();

  // Someone else behind the same address guesses: each an unknown booking, so no real booking is locked.
  for (let attempt = 0; attempt < ADDRESS_THRESHOLD; attempt += 1) {
    const response = await context.request.post('/api/patient-access/authenticate', {
      data: { bookingKey: randomBytes(16).toString('base64url'), type: 'APPOINTMENT', dateOfBirth: '1990-01-01' },
    });
    expect(response.status(), `guess ${attempt + 1}`).toBe(401);
  }
  // Past the threshold the address must also wait a little after its latest failure.
  const refused = await context.request.post('/api/patient-access/authenticate', {
    data: { bookingKey: EVELYN.key, type: 'APPOINTMENT', dateOfBirth: EVELYN.dateOfBirth },
  });
  expect([403, 429]).toContain(refused.status());
  await page.waitForTimeout(3_000);

  const challenges: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/captcha/challenge')) challenges.push(request.url());
  });
  await page.goto(`/appointments/${EVELYN.key}`);
  await expect(page.getByRole('heading', { level: 1, name: t('authentication.title') })).toBeVisible();
  await enterDateOfBirth(page, EVELYN.dateOfBirth);
  expect(challenges.length).toBeGreaterThanOrEqual(1);
  await expectNoSeriousA11yViolations(page, '/authentication (code, after the check)');

  const code = await codeFromMail(EVELYN.email);
  await page.getByLabel(t('authentication.code.label')).fill(code);
  await page.getByRole('button', { name: t('authentication.code.verify') }).click();
  await expect(page).toHaveURL(new RegExp(`/appointments/${EVELYN.key}$`));
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  expect(challenges.length).toBeGreaterThanOrEqual(2);
  await context.close();
});
