import { expect, test, type Page } from '@playwright/test';
import { createSignedLinks, parseSignedLinkKeys } from '../../src-server/platform/signed-links';
import { createTestClock } from '../../src-server/platform/clock';
import { REPLY_LINK } from '../../src-server/modules/appointments/reminder-reply';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { dismissConsentNotice } from './helpers/consent-notice';
import { mailsTo } from './helpers/mail';
import { E2E_SIGNED_LINK_KEYS } from './helpers/servers';
import { signIn } from './helpers/sign-in';

/**
 * The waiting list as a patient meets it (docs/rules/waitlist.md): on the appointment page they
 * ask for an earlier time; another patient cancels an earlier one; within a minute (the offer job)
 * the offer mail arrives; its link shows the earlier time next to theirs, and "Move to the
 * earlier time" moves the appointment. A CT chest, which no other journey books, so no other
 * journey's cancellations are offered here.
 */

const EXAM = 'ct-chest';

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The earlier patient cancels from their reminder's link (its token signed as the server signs it). */
async function cancelByReply(page: Page, bookingKey: string): Promise<void> {
  const links = createSignedLinks({ keys: parseSignedLinkKeys(E2E_SIGNED_LINK_KEYS), clock: createTestClock(new Date()) });
  const token = links.sign({ ...REPLY_LINK, subject: bookingKey, ttlMs: 86_400_000 });
  const status = await page.evaluate(async (value) => {
    const response = await fetch(`/api/appointment-reply/cancel?token=${encodeURIComponent(value)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: '{}',
    });
    return response.status;
  }, token);
  expect(status).toBe(200);
}

test('ask for an earlier time, get the offer by mail, and take it', async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const waiting = { email: `waitlist.waiting.${stamp}@example.com`, dateOfBirth: '1977-07-17' };
  const earlier = await bookFresh(request, { email: `waitlist.freed.${stamp}@example.com`, dateOfBirth: '1978-08-18' }, EXAM, 3);
  const later = await bookFresh(request, waiting, EXAM, 9);
  expect(later.clinic).toBe(earlier.clinic);

  // On the phone: the appointment page offers the waiting list.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/appointments/${later.key}`);
  await signIn(page, waiting);
  await dismissConsentNotice(page);
  const heading = page.getByRole('heading', { level: 2, name: 'Want an earlier time?' });
  await expect(heading).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Tell me about earlier times' }).click();
  await expect(page.getByTestId('waitlist-status')).toContainText('You are on the waiting list for an earlier time');
  await expect(page.getByRole('button', { name: 'Stop waiting for an earlier time' })).toBeVisible();
  await heading.scrollIntoViewIfNeeded();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'appointment page, waiting');
  await page.screenshot({ path: testInfo.outputPath('waitlist-phone-waiting.png'), fullPage: true });

  // The earlier patient cannot come; the offer job (every minute) offers the time.
  await cancelByReply(page, earlier.key);
  await expect
    .poll(async () => (await mailsTo(waiting.email)).find((mail) => /An earlier time is free/.test(mail.subject ?? '')) !== undefined, {
      timeout: 120_000,
      intervals: [2_000],
    })
    .toBe(true);
  const offerMail = (await mailsTo(waiting.email)).find((mail) => /An earlier time is free/.test(mail.subject ?? ''));
  const link = /href="[^"]*(\/waitlist-offer\?token=[^"]+)"/.exec(String(offerMail?.html))?.[1]?.replace(/&amp;/g, '&') ?? '';
  expect(link).not.toBe('');

  // The offer on a desktop: the earlier time beside the current one, held, one button to move.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'An earlier time is free' })).toBeVisible();
  const times = page.getByTestId('offer-times');
  await expect(times).toContainText('Earlier time');
  await expect(times).toContainText('Your time now');
  // Until a time today, or, made in the clinic's quiet hours, until a time on the named day.
  await expect(page.getByText(/^It is held for you until ([A-Z][a-z]+day )?\d{1,2}:\d{2}\s?[ap]m\./)).toBeVisible();
  const move = page.getByRole('button', { name: 'Move to the earlier time' });
  await expect(move).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'waitlist offer');
  await page.screenshot({ path: testInfo.outputPath('waitlist-desktop-offer.png'), fullPage: true });

  await move.click();
  const outcome = page.getByTestId('offer-outcome');
  await expect(outcome).toContainText('Done: your appointment is now at the earlier time.');
  await expect(outcome).toBeFocused();
  await expect(page.getByRole('button', { name: 'Move to the earlier time' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'waitlist offer taken');
  await page.screenshot({ path: testInfo.outputPath('waitlist-desktop-moved.png'), fullPage: true });

  // The appointment is at the earlier time now.
  const startsAt = await page.evaluate(async (key) => {
    const response = await fetch(`/api/appointments/${key}`, { credentials: 'include' });
    return ((await response.json()) as { appointments: Array<{ startsAt: string }> }).appointments[0]?.startsAt;
  }, later.key);
  expect(startsAt).toBe(new Date(earlier.startsAt).toISOString());
});
