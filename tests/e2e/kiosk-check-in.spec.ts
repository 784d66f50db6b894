import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { chooseRadio, surveyDialog } from './helpers/questionnaires';
import { codeFromMail } from './helpers/sign-in';
import { kioskAdmin, staffPost, type NewKiosk } from './helpers/kiosk-admin';

/**
 * Kiosk check-in (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app) on a 1080x1920 portrait touch screen: a kiosk administrator adds a
 * kiosk and gets its one-time code (the staff API, from a signed-in page), the lobby screen enrolls
 * with it, the demo kiosk patient (resources/demo-provider/appointments.json: 20 minutes after the
 * seed, so inside the kiosk's window) finds her booking by last name and date of birth, types the
 * mailed code, confirms and is checked in through the demo RIS receiver. Then the kiosk is revoked
 * and its next action shows the enroll-again screen. axe on every step.
 */

test.use({ ignoreHTTPSErrors: true });

const KIOSK_SCREEN = { viewport: { width: 1080, height: 1920 }, hasTouch: true };
const AVA = { lastName: 'Lobbyton', day: '12', month: '4', year: '1979', email: 'ava.lobbyton@example.com' };

async function enterIdentity(kiosk: Page) {
  await kiosk.getByLabel(t('kiosk.welcome.lastName')).fill(AVA.lastName);
  await kiosk.getByLabel(t('kiosk.welcome.day')).fill(AVA.day);
  await kiosk.getByLabel(t('kiosk.welcome.month')).fill(AVA.month);
  await kiosk.getByLabel(t('kiosk.welcome.year')).fill(AVA.year);
  await kiosk.getByRole('button', { name: t('kiosk.welcome.submit') }).tap();
}

test('a kiosk is enrolled with its code, a patient checks in with last name, date of birth and the mailed code, and a revoked kiosk asks to be enrolled again', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await kioskAdmin(browser);
  const added = await staffPost<NewKiosk>(admin, '/api/staff/kiosks', { name: `E2E lobby ${Date.now()}`, clinicSlug: 'parramatta' });
  expect(added.code).toMatch(/^[A-Z0-9]{4}-?[A-Z0-9]{4}$/);

  const kiosk = await (await browser.newContext({ ...KIOSK_SCREEN, ignoreHTTPSErrors: true })).newPage();
  await kiosk.goto('/kiosk?kioskMode=true');
  const code = kiosk.getByLabel(t('kiosk.enroll.label'));
  await expect(code).toBeVisible();
  const save = kiosk.getByRole('button', { name: t('kiosk.enroll.save') });
  await expect(save).toBeDisabled();
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: enrollment');

  // A code of the wrong shape is refused on the screen and never sent.
  await code.fill('NOPE');
  await save.tap();
  await expect(kiosk.getByText(t('kiosk.enroll.format'))).toBeVisible();
  await code.fill(added.code.toLowerCase());
  await save.tap();
  const welcome = kiosk.getByRole('heading', { name: t('kiosk.welcome.heading') });
  await expect(welcome).toBeVisible();
  const cookies = await kiosk.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'kioskIdentity')?.value).toBe(encodeURIComponent(added.kiosk.name));
  // Chromium caps cookie lifetimes at 400 days, so the 2030-12-31 expiry is checked in the web tests; here the path.
  expect(cookies.find((cookie) => cookie.name === 'patientKioskIdentity')?.path).toBe('/');
  expect(cookies.find((cookie) => cookie.name === '__Host-portal_kiosk')?.httpOnly).toBe(true);
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: welcome');
  // The language buttons: Macedonian for this patient, then back.
  await kiosk.getByRole('button', { name: 'Македонски' }).tap();
  await expect(kiosk.getByRole('heading', { name: 'Пријавете се со вашето име' })).toBeVisible();
  await expect(kiosk.locator('html')).toHaveAttribute('lang', 'mk');
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: welcome in Macedonian');
  await kiosk.getByRole('button', { name: 'Англиски (English)' }).tap();
  await expect(welcome).toBeVisible();

  // Details that match nobody say so, and nothing more.
  await kiosk.getByLabel(t('kiosk.welcome.lastName')).fill('Nobody');
  await kiosk.getByLabel(t('kiosk.welcome.day')).fill('1');
  await kiosk.getByLabel(t('kiosk.welcome.month')).fill('1');
  await kiosk.getByLabel(t('kiosk.welcome.year')).fill('1950');
  await kiosk.getByRole('button', { name: t('kiosk.welcome.submit') }).tap();
  await expect(kiosk.getByText(t('kiosk.identity.notFound'))).toBeVisible();
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: not found');

  await enterIdentity(kiosk);
  await expect(kiosk).toHaveURL(/\/check-in\?step=verify-otp&kioskMode=true$/);
  const otp = kiosk.getByLabel(t('kiosk.otp.label'));
  await expect(otp).toBeVisible();
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: verify code');
  const mailed = await codeFromMail(AVA.email);
  await otp.fill(mailed === '000000' ? '111111' : '000000');
  await kiosk.getByRole('button', { name: t('kiosk.otp.submit') }).tap();
  await expect(kiosk.getByText(t('kiosk.otp.wrong'))).toBeVisible();
  await otp.fill(mailed);
  await kiosk.getByRole('button', { name: t('kiosk.otp.submit') }).tap();

  // The consent form first: Ava leaves it for the desk (the journeys in kiosk-journeys.spec.ts sign it).
  await expect(kiosk).toHaveURL(/step=consent/);
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: consent');
  await kiosk.getByRole('button', { name: t('kiosk.consent.atDesk') }).tap();
  // Questionnaires due before the visit, where the booking has any: left for the desk too.
  const atDesk = kiosk.getByRole('button', { name: t('kiosk.questionnaires.atDesk') });
  const feedbackHeading = kiosk.getByRole('heading', { name: t('kiosk.feedback.heading') });
  await expect(atDesk.or(feedbackHeading).first()).toBeVisible();
  while (await atDesk.isVisible()) await atDesk.tap();

  // The provider asks for feedback (giveFeedback) while the booking's FEEDBACK questionnaire is unanswered.
  await expect(kiosk).toHaveURL(/step=feedback/);
  await expect(kiosk.getByRole('heading', { name: t('kiosk.feedback.heading') })).toBeVisible();
  const survey = surveyDialog(kiosk);
  await expect(survey).toBeVisible({ timeout: 15_000 });
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: feedback');
  await chooseRadio(survey, /How easy was it to book and prepare for your appointment/, '5');
  await survey.getByRole('button', { name: 'Complete', exact: true }).click();

  await expect(kiosk).toHaveURL(/step=confirm/);
  await expect(kiosk.getByRole('heading', { name: t('kiosk.confirm.heading') })).toBeVisible();
  await expect(kiosk.getByText('X-ray chest')).toBeVisible();
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: confirm');
  await kiosk.getByRole('button', { name: t('kiosk.confirm.submit') }).tap();

  // Sent to the clinic's system: processing (no buttons) until the demo RIS accepts it.
  const done = kiosk
    .getByRole('heading', { name: t('kiosk.complete.heading') })
    .or(kiosk.getByRole('heading', { name: t('kiosk.success.heading') }));
  const processing = kiosk.getByRole('heading', { name: t('kiosk.processing.heading') });
  await expect(processing.or(done).first()).toBeVisible();
  if (await processing.isVisible()) {
    await expect(kiosk.getByRole('region', { name: t('kiosk.title') }).getByRole('button')).toHaveCount(0);
    await expectNoSeriousA11yViolations(kiosk, 'kiosk: processing');
  }
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(kiosk).toHaveURL(/step=(complete|success)/);
  // What is still to do before the scan (the X-ray's preparation notes, at least).
  const checklist = kiosk.getByRole('region', { name: t('checkIn.checklist.title') });
  await expect(checklist.getByRole('listitem').first()).toBeVisible();
  // The form left unsigned: ask at the desk, never "on your appointment page", and no link away.
  await expect(checklist.getByText(t('checkIn.checklist.consentFormsKiosk', { count: 1 }))).toBeVisible();
  await expect(kiosk.locator('a[href]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: checked in');

  // Start again signs the patient out and starts over for the next one.
  await kiosk.getByRole('button', { name: t('kiosk.shell.startAgain') }).tap();
  await expect(kiosk).toHaveURL(/\/kiosk\?kioskMode=true$/);
  await expect(welcome).toBeVisible();
  expect((await kiosk.context().cookies()).map((cookie) => cookie.name)).not.toContain('__Host-portal_session');

  // Revoked: the next kiosk action shows the enroll-again screen.
  await staffPost(admin, `/api/staff/kiosks/${added.kiosk.id}/revoke`);
  await enterIdentity(kiosk);
  await expect(kiosk.getByText(t('kiosk.enroll.revoked'))).toBeVisible();
  await expect(kiosk.getByLabel(t('kiosk.enroll.label'))).toBeVisible();
  await expectNoSeriousA11yViolations(kiosk, 'kiosk: revoked');
  // And it stays so after a reload.
  await kiosk.reload();
  await expect(kiosk.getByText(t('kiosk.enroll.revoked'))).toBeVisible();
});

test('a visit to /check-in without a check-in under way goes to the kiosk home', async ({ browser }) => {
  const kiosk = await (await browser.newContext(KIOSK_SCREEN)).newPage();
  await kiosk.goto('/check-in?step=confirm&kioskMode=true');
  await expect(kiosk).toHaveURL(/\/kiosk\?kioskMode=true$/);
  await expect(kiosk.getByLabel(t('kiosk.enroll.label'))).toBeVisible();
});
