import { expect, test, type Page } from '@playwright/test';
import { createSignedLinks, parseSignedLinkKeys } from '../../src-server/platform/signed-links';
import { createTestClock } from '../../src-server/platform/clock';
import { REPLY_LINK } from '../../src-server/modules/appointments/reminder-reply';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { mailsTo } from './helpers/mail';
import { E2E_SIGNED_LINK_KEYS } from './helpers/servers';

/**
 * Answering a reminder as a patient meets it (docs/rules/reminders.md#replies): the reminder
 * mail's "Yes, I will come" and "I cannot come" open this page with the mail's signed link. A
 * reminder waits for its time and the clinic's quiet hours, so the journey makes the link the
 * server's reminder makes (the same key, purpose and subject; the server test
 * tests/server/modules/appointments/reminder-reply.test.ts reads it from the queued mail).
 * Opening changes nothing; the buttons answer, the keyboard reaches them, focus lands on the outcome.
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, dateOfBirth: '1981-02-03' },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, dateOfBirth: '1982-03-04' },
] as const;

/** The link the reminder mail's buttons carry, valid two days. */
function replyLink(bookingKey: string, answer: 'confirm' | 'cancel'): string {
  const links = createSignedLinks({ keys: parseSignedLinkKeys(E2E_SIGNED_LINK_KEYS), clock: createTestClock(new Date()) });
  const token = links.sign({ ...REPLY_LINK, subject: bookingKey, ttlMs: 2 * 86_400_000 });
  return `/appointment-reply?token=${encodeURIComponent(token)}&answer=${answer}`;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

async function stateOf(page: Page, link: string): Promise<string> {
  const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
  return page.evaluate(async (value) => {
    const response = await fetch(`/api/appointment-reply?token=${encodeURIComponent(value)}`);
    return ((await response.json()) as { state: string }).state;
  }, token);
}

for (const size of SIZES) {
  test(`confirm, then cancel, from the reminder's link on a ${size.name}`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const email = `reply.${size.name}.${Date.now()}@example.com`;
    const booking = await bookFresh(request, { email, dateOfBirth: size.dateOfBirth });
    const link = replyLink(booking.key, 'confirm');

    // Opened (as a mail scanner would too): the appointment, the question, nothing changed.
    await page.setViewportSize(size.viewport);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Your appointment' })).toBeVisible();
    await expect(page.getByTestId('reply-appointment')).toContainText('X-ray chest');
    await expect(page.getByRole('heading', { level: 2, name: 'Will you come?' })).toBeVisible();
    const yes = page.getByRole('button', { name: 'Yes, I will come' });
    await expect(yes).toBeInViewport();
    expect(await stateOf(page, link)).toBe('OPEN');
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `reminder answer (${size.name})`);
    await page.screenshot({ path: `/tmp/appointment-reply-${size.name}-question.png`, fullPage: true });

    // The keyboard reaches the main answer; it confirms, and focus moves to the outcome.
    await yes.focus();
    await page.keyboard.press('Enter');
    const outcome = page.getByTestId('reply-outcome');
    await expect(outcome).toContainText('Thank you: your appointment is confirmed.');
    await expect(outcome).toBeFocused();
    expect(await stateOf(page, link)).toBe('CONFIRMED');
    await expect(page.getByRole('button', { name: 'Yes, I will come' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `confirmed (${size.name})`);
    await page.screenshot({ path: `/tmp/appointment-reply-${size.name}-confirmed.png`, fullPage: true });

    // Plans change: "I cannot come" asks once more, then cancels; the cancellation mail follows.
    await page.getByRole('button', { name: 'I cannot come' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Cancel your appointment?' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, `cancel question (${size.name})`);
    await page.screenshot({ path: `/tmp/appointment-reply-${size.name}-cancel.png`, fullPage: true });
    await page.getByRole('button', { name: 'Cancel my appointment' }).click();
    await expect(outcome).toHaveText('Your appointment is cancelled. We have sent you an e-mail to confirm it.');
    await expect(outcome).toBeFocused();
    await expect(page.getByRole('link', { name: 'Book a new appointment' })).toBeVisible();
    // Said once: the outcome, not a second "is cancelled" notice.
    await expect(page.getByText('This appointment is cancelled.')).toHaveCount(0);
    expect(await stateOf(page, link)).toBe('CANCELLED');
    await expect
      .poll(async () => (await mailsTo(email)).some((mail) => /cancel/i.test(mail.subject ?? '')), { timeout: 15_000 })
      .toBe(true);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `cancelled (${size.name})`);
    await page.screenshot({ path: `/tmp/appointment-reply-${size.name}-cancelled.png`, fullPage: true });

    // Opened again later: where it stands, and the way to book again.
    await page.reload();
    await expect(page.getByText('This appointment is cancelled.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Yes, I will come' })).toHaveCount(0);
  });
}

test('the mail’s "I cannot come" asks before it cancels, and "Keep my appointment" goes back', async ({ page, request }) => {
  const booking = await bookFresh(request, { email: `reply.keep.${Date.now()}@example.com`, dateOfBirth: '1983-04-05' });
  const link = replyLink(booking.key, 'cancel');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 2, name: 'Cancel your appointment?' })).toBeVisible();
  await page.getByRole('button', { name: 'Keep my appointment' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Will you come?' })).toBeVisible();
  expect(await stateOf(page, link)).toBe('OPEN');

  // One character changed: refused, clearly, with no buttons.
  const token = new URL(link, 'http://x').searchParams.get('token') ?? '';
  const altered = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
  await page.goto(`/appointment-reply?token=${encodeURIComponent(altered)}&answer=confirm`);
  await expect(page.getByTestId('reply-invalid')).toContainText('This link is not valid');
  await expect(page.getByRole('button', { name: 'Yes, I will come' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'altered reminder link');
});
