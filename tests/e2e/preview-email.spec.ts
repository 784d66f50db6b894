import { expect, test, type Page } from '@playwright/test';
import { EMAIL_PREVIEW_OPTIONS_PATH } from '../../src-contract/api/notifications';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { waitForMailTo } from './helpers/mail';
import { DEMO_STAFF, signInThroughPopup } from './helpers/staff';

/**
 * The e-mail preview with its pickers (docs/rules/notifications.md#e-mail-preview):
 * staff sign in on the page, see every mail kind in English and Macedonian by choosing it, switch
 * the frame to a phone's width, and send a test that arrives over SMTP at their own address.
 */
test.use({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });

const PROVIDER = 'Harbour & Range Radiology';
/** Each kind, with what its subject says in English and in Macedonian. */
const TEMPLATES = [
  ['booking_confirmation', /appointment (is confirmed|request is received)/, /потврден|примено/],
  ['booking_request_received', /booking request/, /барање за закажување/],
  ['appointment_cancelled', /is cancelled/, /откажан/],
  ['reschedule_requested', /request to reschedule/, /промена на терминот/],
  ['appointment_reminder', /Reminder of your appointment/, /Потсетник за Вашиот термин/],
  ['waitlist_offer', /An earlier time is free/, /Слободен е порано термин/],
  ['waitlist_taken', /earlier time has been taken/, /веќе зафатено/],
  ['screening_approved', /appointment is confirmed –/, /термин е потврден –/],
  ['screening_declined', /could not be confirmed$/, /не може да се потврди/],
  ['screening_expired', /could not be confirmed in time/, /не можеше навреме/],
  ['otp_code', /verification code/, /верификациски код/],
  ['results_ready', /results are ready/, /се подготвени/],
  ['result_share', /has shared/, /сподели/],
  ['referrer_report_ready', /Report ready for/, /Наодот за/],
  ['callback_requested', /Callback requested by/, /повратен повик/],
] as const;

/** The pickers' ids (each labelled by its form item). */
const PICKER = { template: 'pp-preview-template', language: 'pp-preview-language' } as const;

/**
 * Chooses an option of one of the page's antd Selects by its visible text; done once the Select shows it.
 * The template list is longer than its window (a virtual list draws only what is in view), so
 * the template picker is searched, as staff would type a kind's name.
 */
async function choose(page: Page, picker: keyof typeof PICKER, option: string): Promise<void> {
  const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first();
  // The Select shows its value as the title of the box that holds its combobox.
  const chosen = page.locator(`[title="${option}"]`, { has: page.locator(`#${PICKER[picker]}`) });
  // The page re-renders while a preview loads, which can close a list that was just opened:
  // open it, pick, and try again until the Select shows the choice. The option's own click event
  // picks it (a pointer click could land behind a list that is closing).
  await expect(async () => {
    if (!(await item.isVisible())) {
      await page.locator(`#${PICKER[picker]}`).click({ timeout: 2_000 });
      if (picker === 'template') await page.locator(`#${PICKER[picker]}`).fill(option, { timeout: 2_000 });
    }
    await item.dispatchEvent('click', undefined, { timeout: 2_000 });
    await expect(chosen).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test('staff preview every mail kind in English and Macedonian, at both widths, and send a test to themselves', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/preview-email');
  await expect(page.getByRole('alert')).toContainText(t('previewEmail.signInNeeded'));
  const options = page.waitForResponse((response) => new URL(response.url()).pathname === EMAIL_PREVIEW_OPTIONS_PATH && response.ok());
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('previewEmail.signIn') }).click(), DEMO_STAFF);
  // Every kind the server offers is walked through below, so a new mail kind cannot go unseen here.
  const offered = ((await (await options).json()) as { templates: Array<{ name: string }> }).templates.map((entry) => entry.name);
  expect([...offered].sort()).toEqual(TEMPLATES.map(([name]) => name).sort());

  // Without parameters: the pickers, preselected with the first template, the page's language and the newest booking.
  await expect(page.getByLabel(t('previewEmail.template'), { exact: true })).toBeVisible();
  await expect(page.getByTestId('preview-email-subject')).toContainText(`${PROVIDER}: `);
  await expect(page.getByText('This address is missing')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, '/preview-email (pickers)', { exclude: ['iframe.pp-preview-email-frame'] });
  await page.screenshot({ path: 'test-results/preview-email-desktop.png', fullPage: false });

  for (const [template, english, macedonian] of TEMPLATES) {
    await choose(page, 'template', t(`previewEmail.templates.${template}`));
    for (const [lang, said, words] of [
      ['en-AU', english, /Dear|Hello/],
      ['mk', macedonian, /Почитувани|Здраво/],
    ] as const) {
      await choose(page, 'language', t(`previewEmail.languages.${lang}`));
      const subject = page.getByTestId('preview-email-subject');
      await expect(subject).toContainText(said);
      await expect(subject).toContainText(`${PROVIDER}: `);
      await expect(page.getByTestId('preview-email-text')).toContainText(words);
      await expect(page.frameLocator('iframe.pp-preview-email-frame').locator('body')).toContainText(words);
    }
    await expect(page).toHaveURL(new RegExp(`template=${template}`));
  }

  // A phone's width, then back.
  await page.getByText(t('previewEmail.phone'), { exact: true }).click();
  await expect(page.locator('iframe.pp-preview-email-frame')).toHaveAttribute('data-width', 'phone');
  expect((await page.locator('iframe.pp-preview-email-frame').boundingBox())?.width).toBeLessThanOrEqual(392);
  await page.screenshot({ path: 'test-results/preview-email-phone.png', fullPage: false });
  await page.getByText(t('previewEmail.desktop'), { exact: true }).click();
  await expect(page.locator('iframe.pp-preview-email-frame')).toHaveAttribute('data-width', 'desktop');

  // The spec's parameters keep working: they preselect the pickers.
  await page.goto('/preview-email?template=appointment_cancelled&lang=mk');
  await expect(page.getByTestId('preview-email-subject')).toContainText(/откажан/);

  // Send a test to me: it goes through the outbox to the staff member's own address.
  await page.getByRole('button', { name: t('previewEmail.sendTest') }).click();
  await expect(page.getByRole('status').filter({ hasText: DEMO_STAFF.username })).toBeVisible();
  const mail = await waitForMailTo(DEMO_STAFF.username, 30_000);
  expect(mail.subject ?? '').toMatch(new RegExp(`^${PROVIDER}: .*откажан`));
  await expectNoSeriousA11yViolations(page, '/preview-email (test sent)', { exclude: ['iframe.pp-preview-email-frame'] });
});
