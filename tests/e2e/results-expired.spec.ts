import { expect, test } from '@playwright/test';
import { createTestClock } from '../../src-server/platform/clock';
import { createSignedLinks, parseSignedLinkKeys } from '../../src-server/platform/signed-links';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { E2E_SIGNED_LINK_KEYS } from './helpers/servers';
import { signInWithCode } from './helpers/results';

/**
 * An image viewer link past its time (docs/rules/results.md#patient-result-page-web: EXPIRED goes to redirectUrl): the
 * server answers EXPIRED with the deny page, which says the access to these results has expired.
 * The link is one the server itself would have made an hour ago (its configured test key,
 * playwright.config.ts), for Amelia's released shoulder MRI (resources/demo-provider/results.json):
 * not Liam's knee, which the next journeys sign in to (a second code for one booking within the
 * provider's resend pause is refused).
 */

const SHOULDER = { key: 'jou3zNPa5Gp8X9Q_dwejWQ', dateOfBirth: '1968-11-02', email: 'amelia.sample@example.com' };

test('an image link that has run out sends the patient to the deny page with the results-expired message', async ({ page }) => {
  await page.goto(`/appointments/${SHOULDER.key}/result`);
  await signInWithCode(page, SHOULDER);
  await expect(page.getByRole('heading', { level: 1, name: t('results.title') })).toBeVisible();

  // The live link the page got, and the same link as the server made it an hour ago.
  // Asked until the signed-in session answers with the released report (right after the sign-in,
  // under load, the first answer can still be the page's earlier state).
  const liveLink = () =>
    page.evaluate(async (key) => {
      const response = await fetch(`/api/results/${key}`, { credentials: 'include' });
      return response.ok ? ((await response.json()) as { imageViewerLink?: string }).imageViewerLink : undefined;
    }, SHOULDER.key);
  await expect.poll(liveLink, { timeout: 15_000 }).toMatch(/^v1\./);
  const live = (await liveLink()) ?? '';
  const claims = JSON.parse(Buffer.from(live.split('.')[2] ?? '', 'base64url').toString('utf8')) as {
    sub: string;
    purpose: string;
    aud: string;
  };
  const hourAgo = createSignedLinks({
    keys: parseSignedLinkKeys(E2E_SIGNED_LINK_KEYS),
    clock: createTestClock(new Date(Date.now() - 3_600_000)),
  });
  const expired = hourAgo.sign({ purpose: claims.purpose, audience: claims.aud, subject: claims.sub, ttlMs: 15 * 60_000 });

  const answer = await page.evaluate(async (input) => {
    const response = await fetch(`/api/image_viewer?input=${encodeURIComponent(input)}`, { credentials: 'include' });
    return { status: response.status, body: (await response.json()) as { imageViewerLinkStatus: string; redirectUrl: string | null } };
  }, expired);
  expect(answer.status).toBe(200);
  expect(answer.body.imageViewerLinkStatus).toBe('EXPIRED');
  await page.goto(answer.body.redirectUrl ?? '/');
  await expect(page.getByText(t('deny.resultsExpired'))).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
