import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { MINIMAL_PDF } from './helpers/files';
import { t } from './helpers/i18n';
import { startSecondServer, type SecondServer } from './helpers/second-server';
import { signIn } from './helpers/sign-in';

/**
 * The provider's chat service (docs/rules/chat.md#the-providers-chat-service):
 * with it configured, "Chat with us" loads the provider's script from its https address (the CSP
 * allows exactly that origin) with the environment and deployment id, and the service's window
 * events report the conversation about the booking request the page shows: started (type CHAT),
 * ended after the booking-complete message (booked by the chat service), or ended without it
 * (type PATIENT, back to the booking team). Its script unreachable, the built-in assistant answers.
 *
 * A real server of its own carries the setting (the shared e2e server serves the demo provider
 * without one). We have no internet: the provider's host is answered here by a stand-in messenger
 * that speaks the documented bridge, as the provider's glue code would.
 */

const CHAT_ORIGIN = 'https://messenger.provider-chat.test';
const CHAT_SERVICE = { scriptUrl: `${CHAT_ORIGIN}/v1/bootstrap.js`, environment: 'prod-apse2', deploymentId: 'e2e-deployment-7' };
const CHLOE = { key: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23', email: 'chloe.request@example.com' };
const HARRIET = { key: 'sJOROmG7Kksv3ga8UObC2A', dateOfBirth: '1962-09-08', email: 'harriet.request@example.com' };

/** A messenger as far as the patient sees it: a panel with a log, two buttons and a file field, speaking the bridge's events. */
const STAND_IN_MESSENGER = `(() => {
  const settings = window.portalChatService;
  let panel = null;
  const say = (text) => { const line = document.createElement('p'); line.textContent = text; panel.querySelector('[role=log]').append(line); };
  window.addEventListener('portal-chat:open', () => {
    if (panel) return;
    panel = document.createElement('section');
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', 'Provider messenger');
    Object.assign(panel.style, { position: 'fixed', right: '16px', bottom: '16px', width: '300px', maxWidth: 'calc(100vw - 32px)',
      background: '#fff', color: '#1a1a1a', border: '1px solid #444', padding: '12px', zIndex: '3000' });
    panel.innerHTML = '<h2>Messenger</h2><div role="log" aria-live="polite"></div>' +
      '<button type="button" data-act="book">Book my scan</button> ' +
      '<button type="button" data-act="end">End chat</button>' +
      '<label>Attach a file <input type="file" multiple data-act="attach"></label>';
    panel.querySelectorAll('button').forEach((button) => { button.style.minHeight = '44px'; button.style.margin = '4px'; });
    document.body.append(panel);
    say('Deployment ' + settings.deploymentId + ' in ' + settings.environment + ', request ' + (settings.bookingRequestKey || 'none'));
    panel.querySelector('[data-act=attach]').addEventListener('change', (event) => {
      window.dispatchEvent(new CustomEvent('portal-chat:upload', { detail: { files: Array.from(event.target.files) } }));
    });
    panel.addEventListener('click', (event) => {
      const act = event.target.dataset ? event.target.dataset.act : undefined;
      if (act === 'book') { say('Your scan is booked.'); window.dispatchEvent(new Event('portal-chat:booking-complete')); }
      if (act === 'end') { window.dispatchEvent(new Event('portal-chat:disconnected')); panel.remove(); panel = null; }
    });
  });
  window.addEventListener('portal-chat:start', () => {
    if (!panel) return;
    say('Hello, I can book your scan.');
    window.dispatchEvent(new Event('portal-chat:conversation-started'));
  });
  window.addEventListener('portal-chat:upload-result', (event) => {
    if (!panel) return;
    event.detail.files.forEach((file) => say(file.status === 'sent' ? 'Received ' + file.name : 'Not received ' + file.name + ': ' + file.problem));
  });
})();`;

let server: SecondServer;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startSecondServer('chat-service', 9, [
    `update provider set integration_config = integration_config || '${JSON.stringify({ chatService: CHAT_SERVICE })}'::jsonb`,
  ]);
});

test.afterAll(async () => {
  await server.stop();
});

/** The provider's host answered by the stand-in (or refused); every script request and CSP refusal of it recorded. */
async function withMessenger(page: Page, reachable = true): Promise<{ scripts: string[]; cspErrors: string[] }> {
  const scripts: string[] = [];
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      cspErrors.push(`${message.text()} at ${message.location().url}:${String(message.location().lineNumber)}`);
  });
  await page.route(`${CHAT_ORIGIN}/**`, async (route) => {
    scripts.push(route.request().url());
    if (!reachable) return route.abort('connectionrefused');
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN_MESSENGER });
  });
  return { scripts, cspErrors };
}

async function openRequest(page: Page, who: typeof CHLOE): Promise<void> {
  await page.goto(`${server.origin}/booking-requests/${who.key}`);
  const heading = page.getByRole('heading', { level: 1, name: t('bookingRequest.title') });
  await signIn(page, who, heading);
  await expect(heading).toBeVisible();
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('on a phone (390x844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the provider's messenger books the request; the page then says so", async ({ page }) => {
    test.setTimeout(120_000);
    const { scripts, cspErrors } = await withMessenger(page);
    await openRequest(page, CHLOE);
    const launcher = page.getByRole('button', { name: t('chat.launcher') });
    await expect(launcher).toBeVisible({ timeout: 30_000 });
    expect(scripts, 'nothing of the chat service before the press').toEqual([]);

    await launcher.click();
    const messenger = page.getByRole('dialog', { name: 'Provider messenger' });
    await expect(messenger).toBeVisible();
    expect(scripts).toEqual([CHAT_SERVICE.scriptUrl]);
    await expect(messenger.getByRole('log')).toContainText(`Deployment e2e-deployment-7 in prod-apse2, request ${CHLOE.key}`);
    // Not the built-in assistant.
    await expect(page.getByRole('dialog', { name: t('chat.title') })).toHaveCount(0);

    // The portal begins the conversation 2 s after the messenger opens.
    await expect(messenger.getByRole('log')).toContainText('Hello, I can book your scan.');
    await expect(page.getByText(t('bookingRequest.request.chatServiceTalking'))).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking request with the chat service talking (390x844)');
    await page.screenshot({ path: test.info().outputPath('chat-service-talking-390.png') });
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);

    // The bot asks for the referral: the messenger's file goes to the request, checked as any upload.
    await messenger
      .getByLabel('Attach a file')
      .setInputFiles({ name: 'chat-referral.pdf', mimeType: 'application/pdf', buffer: MINIMAL_PDF });
    await expect(messenger.getByRole('log')).toContainText('Received chat-referral.pdf', { timeout: 15_000 });
    await expect(page.getByText('chat-referral.pdf').first()).toBeVisible();

    await messenger.getByRole('button', { name: 'Book my scan' }).click();
    await messenger.getByRole('button', { name: 'End chat' }).click();
    await expect(page.getByText(t('bookingRequest.request.chatServiceBooked'))).toBeVisible();
    await expect(page.getByText(t('bookingRequest.request.chatServiceTalking'))).toHaveCount(0);

    // A new look at the page (the server's record, not the page's memory).
    await page.reload();
    await expect(page.getByText(t('bookingRequest.request.chatServiceBooked'))).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking request booked by the chat service (390x844)');
    await page.screenshot({ path: test.info().outputPath('chat-service-booked-390.png'), fullPage: true });
    expect(cspErrors).toEqual([]);
  });
});

test.describe('at a desk (1440x900)', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a conversation that ends before booking leaves the request with the booking team', async ({ page }) => {
    test.setTimeout(120_000);
    const { cspErrors } = await withMessenger(page);
    await openRequest(page, HARRIET);
    const launcher = page.getByRole('button', { name: t('chat.launcher') });
    await expect(launcher).toBeVisible({ timeout: 30_000 });
    await launcher.click();
    const messenger = page.getByRole('dialog', { name: 'Provider messenger' });
    await expect(page.getByText(t('bookingRequest.request.chatServiceTalking'))).toBeVisible();
    await messenger.getByRole('button', { name: 'End chat' }).click();
    await expect(page.getByText(t('bookingRequest.request.chatServiceTalking'))).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: t('bookingRequest.title') })).toBeVisible();
    await expect(page.getByText(t('bookingRequest.request.chatService'), { exact: true })).toHaveCount(0);
    expect(cspErrors).toEqual([]);
  });

  test("with the provider's script unreachable, the built-in assistant answers", async ({ page }) => {
    test.setTimeout(120_000);
    const { scripts } = await withMessenger(page, false);
    await page.goto(`${server.origin}/contact`);
    const launcher = page.getByRole('button', { name: t('chat.launcher') });
    await expect(launcher).toBeVisible({ timeout: 30_000 });
    await launcher.click();
    await expect(page.getByRole('dialog', { name: t('chat.title') })).toBeVisible();
    expect(scripts).toEqual([CHAT_SERVICE.scriptUrl]);
    await expectNoSeriousA11yViolations(page, 'the built-in assistant in place of the unreachable chat service');
  });
});
