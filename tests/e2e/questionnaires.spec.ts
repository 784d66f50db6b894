import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { fillPatientDetails, takeFirstTimeAndContinue } from './helpers/booking';
import { t } from './helpers/i18n';
import {
  answerQuestionnairesPlainly,
  chooseBoolean,
  chooseRadio,
  surveyDialog,
  tickOption,
  watchCspViolations,
} from './helpers/questionnaires';
import { signIn } from './helpers/sign-in';

/**
 * Questionnaires in Chromium against the built app and the real server: the survey
 * modal under the real CSP (SurveyJS's styles and fonts), keyboard and axe inside it, the booking
 * flow's questionnaires and their outcomes, and /q.
 */

type Catalogue = { [key: string]: string | Catalogue };
const questionnaireTexts = JSON.parse(
  readFileSync(join(process.cwd(), 'src-web', 'i18n', 'locales', 'en', 'questionnaires.json'), 'utf8'),
) as Catalogue;

/** An English text of the questionnaires catalogue (questionnaires.json, loaded with their code). */
function qt(key: string, values: Record<string, string | number> = {}): string {
  let node: string | Catalogue | undefined = questionnaireTexts;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`No English text for '${key}'`);
  return node.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name] ?? ''));
}

/** Collects the CSP violations the page reports in its console (SurveyJS's icons included). */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/.test(text)) violations.push(text);
  });
  return violations;
}

/** '#0b5f7a' as the browser computes it: 'rgb(11, 95, 122)'. */
function rgb(hex: string): string {
  const digits = hex.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((index) => parseInt(full.slice(index, index + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

async function chooseExam(page: Page, name: string) {
  await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill(name);
  await page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) }).check();
}

/** From the booking home: the exam chosen, then Continue (its questionnaires come next). */
async function startWithExam(page: Page, name: string) {
  await page.goto('/');
  await chooseExam(page, name);
  await page.getByRole('button', { name: t('action.continue') }).click();
}

/** The visible progress line of a survey modal. */
function progress(dialog: Locator, answered: number, total: number): Locator {
  return dialog.getByText(qt('questionnaire.progress', { answered, total })).locator('visible=true');
}

// ------------------------------------------------------------------------------------------------
// Against the real server and its demo questionnaires (resources/demo-provider/questionnaires.json).

interface DemoQuestionnaire {
  slug: string;
  title: string;
  outcomes: { type: string; condition: string; result: string }[];
}
const demo = JSON.parse(readFileSync(join(process.cwd(), 'resources', 'demo-provider', 'questionnaires.json'), 'utf8')) as {
  questionnaires: DemoQuestionnaire[];
};
const MRI_SAFETY = demo.questionnaires.find((entry) => entry.slug === 'mri-safety-screening') as DemoQuestionnaire;
const BEFORE_YOUR_VISIT = demo.questionnaires.find((entry) => entry.slug === 'before-your-visit') as DemoQuestionnaire;
const PACEMAKER_DENIAL = MRI_SAFETY.outcomes.find((outcome) => outcome.condition.includes('pacemaker'))?.result ?? '';
const PREGNANCY_CHECK = demo.questionnaires.find((entry) => entry.slug === 'xray-pregnancy-check') as DemoQuestionnaire;
const PREGNANCY_REQUEST = PREGNANCY_CHECK.outcomes.find((outcome) => outcome.type === 'CREATE_BOOKING_REQUEST')?.result ?? '';
const CT_CONTRAST = demo.questionnaires.find((entry) => entry.slug === 'ct-contrast') as DemoQuestionnaire;

const PATIENT = {
  title: 'Ms',
  firstName: 'Quinn',
  lastName: 'Questionnaire',
  dateOfBirth: '1971-03-14',
  email: 'quinn.questionnaire@example.com',
  contactNumber: '0491570157',
  postalCode: '2150',
  medicareNumber: '2123456701',
};

/** From the booking home: MRI knee chosen, continued, its safety screening open and unanswered. */
async function openMriSafety(page: Page): Promise<Locator> {
  await startWithExam(page, 'MRI knee');
  const dialog = page.getByRole('dialog', { name: MRI_SAFETY.title });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(progress(dialog, 0, 5)).toHaveCount(1);
  return dialog;
}

/** The MRI safety screening answered page by page (devices, then comfort). */
async function answerMriSafety(page: Page, pacemaker: 'Yes' | 'No') {
  const dialog = page.getByRole('dialog', { name: MRI_SAFETY.title });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await chooseRadio(dialog, /pacemaker/, pacemaker);
  await chooseBoolean(dialog, /any other implant/, 'No');
  await chooseRadio(dialog, /metal fragments/, 'No');
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await chooseBoolean(dialog, /claustrophobic/, 'No');
  await dialog.getByRole('spinbutton', { name: /weight/ }).fill('72');
  await expectNoSeriousA11yViolations(page, 'MRI safety screening, second page');
  await dialog.getByRole('button', { name: 'Complete', exact: true }).click();
}

/** Chooses the first listed clinic and its first free time, then continues to the details. */
async function chooseFirstTime(page: Page) {
  await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
  await takeFirstTimeAndContinue(page);
}

test.describe('against the real server', () => {
  test.use({ geolocation: { latitude: -33.8156, longitude: 151.0029 }, permissions: ['geolocation'] });

  test('the survey modal: SurveyJS styles under the CSP, Escape ignored, suggestions from 3 characters, cleared when not chosen, asks before closing, axe clean', async ({
    page,
  }) => {
    const csp = watchCsp(page);
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/questionnaires/autocomplete/')) lookups.push(new URL(request.url()).searchParams.get('q') ?? '');
    });
    const dialog = await openMriSafety(page);
    // SurveyJS's own stylesheet applies (the questions are styled, not the browser's defaults).
    await expect(dialog.locator('.sd-question').first()).toHaveCSS('border-radius', /[1-9]/);

    // Static: Escape does not close it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'survey modal');

    // Keyboard: the (visually hidden) radio input takes the focus and Space answers.
    await dialog.getByRole('radio', { name: 'No', exact: true }).first().focus();
    await page.keyboard.press('Space');
    await expect(progress(dialog, 1, 5)).toHaveCount(1);

    // The implant question appears with a Yes; it suggests from the provider's list.
    await chooseBoolean(dialog, /any other implant/, 'Yes');
    const implant = dialog.getByRole('combobox', { name: /Which implant/ });
    await implant.fill('hi');
    await page.waitForTimeout(700); // longer than the 400 ms debounce: two letters never ask
    expect(lookups).toEqual([]);
    await implant.fill('repl');
    await expect(dialog.getByRole('option', { name: 'Knee replacement' })).toBeVisible();
    expect(lookups).toEqual(['repl']);
    await expectNoSeriousA11yViolations(page, 'survey modal with suggestions');
    // A value that is not one of the suggestions is cleared when the field is left.
    await implant.fill('replacement of something');
    await implant.press('Tab');
    await expect(implant).toHaveValue('');
    await implant.fill('repl');
    await expect(dialog.getByRole('option', { name: 'Knee replacement' })).toBeVisible();
    await implant.press('ArrowDown');
    await expect(dialog.getByRole('option', { name: 'Hip replacement' })).toHaveAttribute('aria-selected', 'true');
    await implant.press('ArrowDown');
    await implant.press('Enter');
    await expect(implant).toHaveValue('Knee replacement');

    // Close asks first (showClosingConfirmation); No keeps the answers.
    await dialog.getByRole('button', { name: t('action.close') }).click();
    const confirm = page.getByRole('alertdialog', { name: qt('questionnaire.closeConfirm.title') });
    await expect(confirm).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'close confirmation');
    await confirm.getByRole('button', { name: qt('questionnaire.closeConfirm.no') }).click();
    await expect(confirm).toBeHidden();
    await expect(implant).toHaveValue('Knee replacement');
    // Yes closes it unanswered: the booking stays on the exam choice.
    await dialog.getByRole('button', { name: t('action.close') }).click();
    await confirm.getByRole('button', { name: qt('questionnaire.closeConfirm.yes') }).click();
    await expect(surveyDialog(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: t('booking.exams.title') })).toBeVisible();
    expect(csp).toEqual([]);
  });

  test('booking an MRI with a pacemaker answer is denied with the provider message', async ({ page }) => {
    const csp = watchCsp(page);
    await openMriSafety(page);
    await expectNoSeriousA11yViolations(page, 'MRI safety screening');
    await answerMriSafety(page, 'Yes');

    const denied = page.getByRole('alertdialog', { name: qt('questionnaire.denied') });
    await expect(denied).toBeVisible();
    await expect(denied.getByText(PACEMAKER_DENIAL)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking denied');
    await denied.getByRole('button', { name: t('action.close') }).click();
    await expect(page.getByRole('heading', { level: 2, name: t('booking.exams.title') })).toBeVisible();
    // Continuing again does not get past the denial: the stored answer still denies.
    await page.getByRole('button', { name: t('action.continue') }).click();
    await expect(page.getByRole('alertdialog', { name: qt('questionnaire.denied') })).toBeVisible();
    expect(csp).toEqual([]);
  });

  test('without a pacemaker the MRI is booked, the answers are on the appointment, and /q shows the pending questionnaire, then all answered', async ({
    page,
  }) => {
    await startWithExam(page, 'MRI knee');
    await answerMriSafety(page, 'No');
    await chooseFirstTime(page);
    await fillPatientDetails(page, PATIENT);
    await page.getByRole('button', { name: t('booking.details.submit') }).click();

    await expect(page.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });
    const href = (await page.getByRole('link', { name: t('appointment.confirmed.manage') }).getAttribute('href')) ?? '';
    const bookingKey = href.split('/').at(-1) ?? '';
    expect(bookingKey).toMatch(/^[A-Za-z0-9_-]{16,}$/);

    // /q: sign in to the booking, then its pending questionnaire opens.
    await page.goto(`/q?bookingKey=${bookingKey}`);
    await expect(page).toHaveURL(/\/authentication\?/);
    await signIn(page, PATIENT, page.getByRole('heading', { level: 1, name: qt('questionnaire.title') }));
    await expect(page).toHaveURL(/\/q\?bookingKey=/);
    const visit = page.getByRole('dialog', { name: BEFORE_YOUR_VISIT.title });
    await expect(visit).toBeVisible({ timeout: 15_000 });
    await expectNoSeriousA11yViolations(page, '/q with the pending questionnaire');
    await chooseBoolean(visit, /interpreter/, 'No');
    await chooseRadio(visit, /examination table/, 'No help needed');
    await visit.getByRole('button', { name: 'Complete', exact: true }).click();
    await expect(page.getByText(qt('message.questionnaires_already_answered'))).toBeVisible();
    await expectNoSeriousA11yViolations(page, '/q all answered');

    // The booking's answers: the MRI screening moved from the booking flow, and this one.
    const stored = await page.request.get(`/api/questionnaires/appointments/${bookingKey}`);
    expect(stored.status()).toBe(200);
    const titles = ((await stored.json()) as { answers: { title: string }[] }).answers.map((answer) => answer.title);
    expect(titles).toEqual(expect.arrayContaining([MRI_SAFETY.title, BEFORE_YOUR_VISIT.title]));

    // Opening /q again: nothing pending.
    await page.goto(`/q?bookingKey=${bookingKey}`);
    await expect(page.getByText(qt('message.questionnaires_already_answered'))).toBeVisible();
    await expect(surveyDialog(page)).toHaveCount(0);

    // The same by one appointment's slug: the page finds its booking.
    const summary = (await (await page.request.get(`/api/appointments/${bookingKey}`)).json()) as { appointments: { slug: string }[] };
    const appointmentSlug = summary.appointments[0]?.slug ?? '';
    await page.goto(`/q?appointmentSlug=${appointmentSlug}`);
    await expect(page).toHaveURL(new RegExp(`/q\\?bookingKey=${bookingKey}`));
    await expect(page.getByText(qt('message.questionnaires_already_answered'))).toBeVisible();
    // An id that is not this session's booking (here: none at all) gets the same answer as one
    // that is someone else's: sign in to your own booking first.
    await page.goto(`/q?appointmentSlug=00000000-0000-4000-8000-000000000000`);
    await expect(page.getByText(qt('questionnaire.signInFirst'))).toBeVisible();
  });

  test('an X-ray for a patient who may be pregnant becomes a booking request, with the provider reason', async ({ page }) => {
    await startWithExam(page, 'X-ray chest');
    const dialog = page.getByRole('dialog', { name: PREGNANCY_CHECK.title });
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    await chooseRadio(dialog, /pregnant/, 'Possibly / I am not sure');
    await dialog.getByRole('button', { name: 'Complete', exact: true }).click();

    await expect(page.getByText(PREGNANCY_REQUEST)).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: t('booking.location.clinicsOptional') })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking request instead of a time');
    await page.getByRole('button', { name: t('action.continue') }).click();
    await fillPatientDetails(page, PATIENT);
    await page.getByRole('button', { name: t('booking.details.submitRequest') }).click();
    await expect(page.getByText(t('booking.confirmation.request'))).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('link', { name: t('booking.confirmation.viewRequest') })).toHaveAttribute('href', /^\/booking-requests\//);
  });

  test('a CT after a contrast reaction asks for the Medicare number and says to bring the referral, up to the appointment page', async ({
    page,
  }) => {
    await startWithExam(page, 'CT chest');
    const dialog = page.getByRole('dialog', { name: CT_CONTRAST.title });
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    await chooseRadio(dialog, /reaction to an X-ray or CT contrast/, 'Yes');
    await chooseRadio(dialog, /kidney disease/, 'No');
    await chooseBoolean(dialog, /metformin/, 'No');
    await tickOption(dialog, /allergies/, 'None');
    await dialog.getByRole('button', { name: 'Complete', exact: true }).click();

    await chooseFirstTime(page);
    await expect(page.getByRole('textbox', { name: t('booking.details.fields.medicareNumber') })).toBeVisible();
    const referral = page.getByText(t('booking.requiredDocument', { title: 'Referral' }));
    await expect(referral).toBeVisible();
    await fillPatientDetails(page, PATIENT);
    await page.getByRole('button', { name: t('booking.details.submit') }).click();
    await expect(page.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });
    await expect(referral).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'confirmation with the document to bring');

    await page.getByRole('link', { name: t('appointment.confirmed.manage') }).click();
    await expect(page).toHaveURL(/\/authentication\?/);
    const onAppointment = page.getByText(t('booking.requiredDocument', { title: 'Referral' }));
    await signIn(page, PATIENT, onAppointment);
    await expect(onAppointment).toBeVisible({ timeout: 15_000 });
  });

  test('a plain walk through every booking-time questionnaire of an X-ray reaches the times', async ({ page }) => {
    await startWithExam(page, 'X-ray chest');
    const location = page.getByRole('heading', { level: 2, name: t('booking.location.title') });
    expect(await answerQuestionnairesPlainly(page, location)).toBeGreaterThan(0);
    await expect(location).toBeVisible();
  });

  for (const size of [
    { name: 'phone', width: 390, height: 844 },
    { name: 'desktop', width: 1440, height: 900 },
  ]) {
    test(`at ${size.width}x${size.height} the screening looks like the portal: one yes/no control, the provider's colour, progress in view, the title once, the outcome after Complete, no CSP violation`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const theme = (await (await page.request.get('/api/config/theme')).json()) as { colorPrimary: string };
      const primary = rgb(theme.colorPrimary);
      await page.goto('/');
      await chooseExam(page, 'MRI knee');
      const violations = await watchCspViolations(page);
      const console = watchCsp(page);
      await page.getByRole('button', { name: t('action.continue') }).click();
      const dialog = page.getByRole('dialog', { name: MRI_SAFETY.title });
      await expect(dialog).toBeVisible({ timeout: 15_000 });

      // The title once: the dialog's heading, not SurveyJS's header as well.
      await expect(dialog.getByText(MRI_SAFETY.title, { exact: true })).toHaveCount(1);
      // Progress in the dialog's header, in view and not covered.
      const counter = progress(dialog, 0, 5);
      await expect(counter).toBeInViewport({ ratio: 1 });
      const covered = await counter.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !(top === element || element.contains(top));
      });
      expect(covered).toBe(false);

      // One yes/no control: radio buttons, Yes then No, none chosen and each drawn from the start.
      await expect(dialog.getByRole('switch')).toHaveCount(0);
      const yesNo = dialog.locator('.pp-yes-no');
      await expect(yesNo).toHaveCount(3);
      for (const group of await yesNo.all()) {
        const labels = await group
          .getByRole('radio')
          .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? ''));
        expect(labels.slice(0, 2)).toEqual(['Yes', 'No']);
        for (const radio of await group.getByRole('radio').all()) await expect(radio).not.toBeChecked();
        const ring = await group
          .locator('.sd-item__decorator')
          .first()
          .evaluate((element) => {
            const style = getComputedStyle(element);
            return { width: element.getBoundingClientRect().width, shadow: style.boxShadow, border: style.borderTopWidth };
          });
        expect(ring.width).toBeGreaterThanOrEqual(16);
        expect(ring.shadow !== 'none' || ring.border !== '0px').toBe(true);
      }
      await expectNoSeriousA11yViolations(page, `${size.name}: MRI safety screening`);

      // A phone: a full-screen sheet without sideways scroll; a desktop: a comfortable width.
      const box = await dialog.boundingBox();
      if (size.name === 'phone') expect(box?.width).toBe(size.width);
      else expect(box?.width ?? 0).toBeGreaterThan(600);
      if (size.name !== 'phone') expect(box?.width ?? 0).toBeLessThan(1000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // The provider's primary colour on a chosen answer and on Complete, not SurveyJS's green.
      await chooseRadio(dialog, /pacemaker/, 'No');
      await expect(dialog.locator('.sd-item--checked .sd-item__decorator').first()).toHaveCSS('background-color', primary);
      await expect(progress(dialog, 1, 5)).toBeInViewport();
      await chooseBoolean(dialog, /any other implant/, 'No');
      await chooseRadio(dialog, /metal fragments/, 'No');
      await dialog.getByRole('button', { name: 'Next', exact: true }).click();
      await chooseBoolean(dialog, /claustrophobic/, 'No');
      await dialog.getByRole('spinbutton', { name: /weight/ }).fill('72');
      const complete = dialog.getByRole('button', { name: 'Complete', exact: true });
      await expect(complete).toHaveCSS('background-color', primary);
      // The weight counts once its field is left (SurveyJS updates text answers on blur).
      await expect(progress(dialog, 4, 5)).toBeInViewport();
      // Keyboard: Complete takes the focus with a visible ring.
      await complete.focus();
      await expect(complete).not.toHaveCSS('outline-style', 'none');
      await complete.press('Enter');

      // After Complete: the outcome in words, announced, with the next action.
      const outcome = page.getByRole('status').filter({ hasText: qt('questionnaire.outcome.saved', { title: MRI_SAFETY.title }) });
      await expect(outcome).toBeVisible({ timeout: 15_000 });
      await expect(outcome).toContainText(qt('questionnaire.outcome.nextBooking'));
      const stepHeading = page.getByRole('heading', { level: 2, name: t('booking.location.title') });
      await expect(stepHeading).toBeVisible();
      // In the page's flow right under the step heading, never laid over the clinics and days.
      expect(await outcome.evaluate((element) => getComputedStyle(element).position)).toBe('static');
      const [headingBox, outcomeBox] = [await stepHeading.boundingBox(), await outcome.boundingBox()];
      expect(outcomeBox?.y ?? 0).toBeGreaterThanOrEqual((headingBox?.y ?? 0) + (headingBox?.height ?? 0));
      expect(await stepHeading.evaluate((element) => element.nextElementSibling?.querySelector('[role="status"]') !== null)).toBe(true);
      await expectNoSeriousA11yViolations(page, `${size.name}: after the screening`);
      await outcome.getByRole('button', { name: qt('questionnaire.outcome.dismiss') }).click();
      await expect(outcome).toHaveCount(0);

      expect(await violations()).toEqual([]);
      expect(console).toEqual([]);
    });
  }
});
