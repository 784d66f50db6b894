import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { waitForMailTo } from './helpers/mail';

/**
 * The one-click unsubscribe (docs/rules/notifications.md#unsubscribe) as a patient meets it: the
 * booking confirmation arrives over SMTP with List-Unsubscribe headers and a footer link; the link
 * opens the page on a phone and on a desktop (axe, no sideways scroll), the button unsubscribes,
 * focus lands on the outcome, and "Subscribe again" undoes it; a changed link says so; and a mail
 * provider's RFC 8058 POST (form body, no cookie) works without the page.
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, dateOfBirth: '1983-06-11' },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, dateOfBirth: '1984-07-12' },
] as const;

/** A header line as sent (mailparser turns List-* headers into objects), unfolded. */
function headerLine(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((header) => header.key === name)?.line ?? '';
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, '')
    .trim();
}

/** The footer link's path and query (the page), and the header's one-click URL's path and query (the API). */
function linksOf(mail: ParsedMail): { page: string; oneClick: string } {
  const footer = /href="([^"]*\/unsubscribe\?token=[^"]+)"/.exec(String(mail.html))?.[1] ?? '';
  const header = /^<([^>]+)>$/.exec(headerLine(mail, 'list-unsubscribe'))?.[1] ?? '';
  expect(footer, 'footer link').not.toBe('');
  expect(header, 'List-Unsubscribe').not.toBe('');
  const local = (url: string) => {
    const parsed = new URL(url.replace(/&amp;/g, '&'));
    return `${parsed.pathname}${parsed.search}`;
  };
  return { page: local(footer), oneClick: local(header) };
}

async function status(request: APIRequestContext, oneClick: string): Promise<{ address: string; unsubscribed: boolean }> {
  const response = await request.get(oneClick);
  expect(response.status()).toBe(200);
  return (await response.json()) as { address: string; unsubscribed: boolean };
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

for (const size of SIZES) {
  test(`unsubscribe from the confirmation mail's link on a ${size.name}`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const email = `unsub.${size.name}.${Date.now()}@example.com`;
    await bookFresh(request, { email, dateOfBirth: size.dateOfBirth });
    const mail = await waitForMailTo(email);
    expect(headerLine(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const links = linksOf(mail);
    expect(links.oneClick.startsWith('/api/notifications/unsubscribe?token=')).toBe(true);

    // Opening the link (and a scanner's GET of the API) changes nothing.
    await page.setViewportSize(size.viewport);
    await page.goto(links.page);
    await expect(page.getByRole('heading', { level: 1, name: 'E-mail notifications' })).toBeVisible();
    await expect(page.getByTestId('unsubscribe-address')).toHaveText(`u***@example.com`);
    expect(await status(request, links.oneClick)).toEqual({ address: 'u***@example.com', unsubscribed: false });
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `unsubscribe page (${size.name})`);
    await page.screenshot({ path: `/tmp/unsubscribe-${size.name}-offer.png`, fullPage: true });

    // The keyboard reaches the one button; it unsubscribes and focus moves to the outcome.
    const button = page.getByRole('button', { name: 'Unsubscribe' });
    await button.focus();
    await page.keyboard.press('Enter');
    const outcome = page.getByTestId('unsubscribe-outcome');
    await expect(outcome).toHaveText('u***@example.com is unsubscribed. We will no longer send it our notification e-mails.');
    await expect(outcome).toBeFocused();
    expect(await status(request, links.oneClick)).toMatchObject({ unsubscribed: true });
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `unsubscribed (${size.name})`);
    await page.screenshot({ path: `/tmp/unsubscribe-${size.name}-done.png`, fullPage: true });

    // Changed your mind? Subscribe again.
    await expect(page.getByRole('heading', { name: 'Changed your mind?' })).toBeVisible();
    await page.getByRole('button', { name: 'Subscribe again' }).click();
    await expect(outcome).toHaveText('u***@example.com is subscribed again. You will get our notification e-mails from now on.');
    await expect(outcome).toBeFocused();
    expect(await status(request, links.oneClick)).toMatchObject({ unsubscribed: false });

    // A link with one character changed is refused, clearly, and changes nothing.
    const token = new URL(links.page, 'http://x').searchParams.get('token') ?? '';
    const altered = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    await page.goto(`/unsubscribe?token=${encodeURIComponent(altered)}`);
    await expect(page.getByTestId('unsubscribe-invalid')).toContainText('This unsubscribe link is not valid');
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page, `altered link (${size.name})`);
    await page.screenshot({ path: `/tmp/unsubscribe-${size.name}-invalid.png`, fullPage: true });
  });
}

test('a mail provider unsubscribes with the RFC 8058 one-click POST, no cookie, twice', async ({ playwright, baseURL }) => {
  const email = `unsub.oneclick.${Date.now()}@example.com`;
  const setup = await playwright.request.newContext({ baseURL });
  await bookFresh(setup, { email, dateOfBirth: '1985-08-13' });
  await setup.dispose();
  const { oneClick } = linksOf(await waitForMailTo(email));
  // A fresh context: no cookie, no Origin, as a provider's server posts.
  const provider = await playwright.request.newContext({ baseURL });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const response = await provider.post(oneClick, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ address: 'u***@example.com', unsubscribed: true });
  }
  await provider.dispose();
});

/* The page under /iframe is the same route (mounted twice); the embedding journey covers the embedded layout. */
test('the page opens under /iframe too', async ({ page, request }) => {
  const email = `unsub.iframe.${Date.now()}@example.com`;
  await bookFresh(request, { email, dateOfBirth: '1986-09-14' });
  const { page: link } = linksOf(await waitForMailTo(email));
  await page.goto(`/iframe${link}`);
  await expect(page.getByTestId('unsubscribe-address')).toHaveText('u***@example.com');
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
});
