import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { mailsTo } from './helpers/mail';
import { answerQuestionnairesPlainly, chooseBoolean, chooseRadio, surveyDialog } from './helpers/questionnaires';

/**
 * Questionnaires (issue 5) in Chromium against the built app and the real server: the survey
 * modal under the real CSP (SurveyJS's styles and fonts), keyboard and axe inside it, the booking
 * flow's questionnaires and their outcomes, and /q.
 */

type Catalogue = { [key: string]: string | Catalogue };
const questionnaireTexts = JSON.parse(readFileSync(join(process.cwd(), 'src-web', 'i18n', 'locales', 'en', 'questionnaires.json'), 'utf8')) as Catalogue;

/** An English text of the questionnaires catalogue (questionnaires.json, loaded with their code). */
function qt(key: string, values: Record<string, string | number> = {}): string {
  let node: string | Catalogue | undefined = questionnaireTexts;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`No English text for '${key}'`);
  return node.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name] ?? ''));
}

/** Collects CSP violations the page reports (SurveyJS's icon symbols carry style attributes: harmless, ignored). */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy/.test(text) && !/style attributes/.test(text)) violations.push(text);
  });
  return violations;
}

async function chooseExam(page: Page, name: string) {
  await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill(name);
  await page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) }).check();
}

/** The visible progress line of a survey modal. */
function progress(dialog: Locator, answered: number, total: number): Locator {
  return dialog.getByText(qt('questionnaire.progress', { answered, total })).locator('visible=true');
}

test.describe('the survey modal in the built app (questionnaire answers from a stand-in API)', () => {
  // The questionnaire calls are answered by the test so the modal's own behaviour is checked
  // apart from the demo data: rendering under the CSP, Escape, autocomplete, axe, a denial.
  const QUESTIONNAIRE = {
    id: '11111111-1111-4111-8111-111111111111',
    slug: 'stand-in-mri-safety',
    type: 'BOOKING_FORM',
    title: 'Stand-in MRI safety screening',
    json: {
      pages: [
        {
          elements: [
            { type: 'radiogroup', name: 'pacemaker', title: 'Do you have a pacemaker?', isRequired: true, choices: [{ value: 'yes', text: 'Yes' }, { value: 'no', text: 'No' }] },
            { type: 'text', name: 'implant', title: 'Which implant?', autocompleteSource: 'implants' },
          ],
        },
      ],
    },
    modalSize: 'lg',
    association: 'MODALITY',
    general: false,
    modalityIds: [],
    examSlugs: [],
    outcomes: [],
    css: {},
    showClose: true,
    showClosingConfirmation: true,
    showPreviousButtonOnLastPageEnabled: true,
  };
  const KEY = 'standInKey_abcdefghijklmnop';
  const DENIED = {
    success: false,
    message: 'Patients with a pacemaker cannot book an MRI online. Please call us.',
    maxAttemptsReached: false,
    bookingRequestDenied: false,
    createBookingRequest: false,
    medicareNumberRequired: false,
    validationCodeRequired: false,
    documentTypeId: null,
    insuranceTypeId: null,
    url: null,
    walkInExamName: null,
    prepTime: null,
    minutesPrior: null,
    restrictQuestionnaireId: null,
    walkInEnabledGroup: null,
    newExamSlug: null,
    examChange: null,
  };

  test('renders under the CSP, ignores Escape, suggests from 3 characters, asks before closing, is axe clean, and a denial stops the booking', async ({ page }) => {
    const csp = watchCsp(page);
    const lookups: string[] = [];
    await page.route('**/api/questionnaires/booking-keys', (route) => route.fulfill({ status: 201, json: { bookingKey: KEY } }));
    await page.route('**/api/questionnaires?*', (route) =>
      route.fulfill({ json: { bookingKey: KEY, allAnswered: false, questionnaires: [{ questionnaire: QUESTIONNAIRE, examSlug: 'mri-knee', examSlugs: ['mri-knee'], modalityId: 'mr', answered: false }] } }),
    );
    await page.route('**/api/questionnaires/autocomplete/**', (route) => {
      lookups.push(new URL(route.request().url()).searchParams.get('q') ?? '');
      return route.fulfill({ json: { suggestions: ['Pacemaker', 'Pacemaker leads'] } });
    });
    await page.route('**/api/questionnaires/temporary-answers', (route) => route.fulfill({ json: { questionnaireId: QUESTIONNAIRE.id, questionnaireType: 'BOOKING_FORM', examSlug: 'mri-knee', savedAt: '' } }));
    await page.route('**/api/questionnaires/outcomes', (route) => route.fulfill({ json: DENIED }));

    await page.goto('/');
    await chooseExam(page, 'MRI knee');
    await page.getByRole('button', { name: t('action.continue') }).click();
    const dialog = page.getByRole('dialog', { name: QUESTIONNAIRE.title });
    await expect(dialog).toBeVisible();
    await expect(progress(dialog, 0, 2)).toHaveCount(1);
    // SurveyJS's own stylesheet applies (the radio inputs are styled, not the browser's).
    await expect(dialog.locator('.sd-question').first()).toHaveCSS('border-radius', /[1-9]/);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'survey modal');

    // Keyboard: the (visually hidden) radio input takes the focus and Space answers.
    await dialog.getByRole('radio', { name: 'Yes' }).focus();
    await page.keyboard.press('Space');
    await expect(dialog.getByRole('radio', { name: 'Yes' })).toBeChecked();
    await expect(progress(dialog, 1, 2)).toHaveCount(1);

    const implant = dialog.getByRole('combobox', { name: /Which implant/ });
    await implant.fill('pa');
    await page.waitForTimeout(600);
    expect(lookups).toEqual([]);
    await implant.fill('pace');
    await expect(dialog.getByRole('option', { name: 'Pacemaker leads' })).toBeVisible();
    expect(lookups).toEqual(['pace']);
    await expectNoSeriousA11yViolations(page, 'survey modal with suggestions');
    await implant.press('ArrowDown');
    await implant.press('ArrowDown');
    await implant.press('Enter');
    await expect(implant).toHaveValue('Pacemaker leads');

    // Close asks first (showClosingConfirmation); No keeps the answers.
    await dialog.getByRole('button', { name: t('action.close') }).click();
    const confirm = page.getByRole('alertdialog', { name: qt('questionnaire.closeConfirm.title') });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: qt('questionnaire.closeConfirm.no') }).click();
    await expect(confirm).toBeHidden();
    await expect(implant).toHaveValue('Pacemaker leads');

    await dialog.getByRole('button', { name: 'Complete' }).click();
    const denied = page.getByRole('alertdialog', { name: qt('questionnaire.denied') });
    await expect(denied).toBeVisible();
    await expect(denied.getByText(DENIED.message)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking denied by a questionnaire');
    await denied.getByRole('button', { name: t('action.close') }).click();
    // The booking stays on the exam choice.
    await expect(page.getByRole('heading', { level: 2, name: t('booking.exams.title') })).toBeVisible();
    expect(csp).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------
// Against the real server and its demo questionnaires (resources/demo-provider/questionnaires.json).

interface DemoQuestionnaire {
  slug: string;
  title: string;
  outcomes: { type: string; condition: string; result: string }[];
}
const demo = JSON.parse(readFileSync(join(process.cwd(), 'resources', 'demo-provider', 'questionnaires.json'), 'utf8')) as { questionnaires: DemoQuestionnaire[] };
const MRI_SAFETY = demo.questionnaires.find((entry) => entry.slug === 'mri-safety-screening') as DemoQuestionnaire;
const BEFORE_YOUR_VISIT = demo.questionnaires.find((entry) => entry.slug === 'before-your-visit') as DemoQuestionnaire;
const PACEMAKER_DENIAL = MRI_SAFETY.outcomes.find((outcome) => outcome.condition.includes('pacemaker'))?.result ?? '';

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

/** Signs in on /authentication: date of birth, then the e-mailed code when asked. */
async function signIn(page: Page, who: { dateOfBirth: string; email: string }) {
  const before = (await mailsTo(who.email)).length;
  await page.getByLabel(t('authentication.fields.dateOfBirth')).fill(who.dateOfBirth);
  await page.getByRole('button', { name: t('authentication.submit') }).click();
  const channel = page.getByRole('radio', { name: t('authentication.channel.email') });
  const code = page.getByLabel(t('authentication.code.label'));
  const done = page.getByRole('heading', { level: 1, name: qt('questionnaire.title') });
  await expect(channel.or(code).or(done).first()).toBeVisible();
  if (await done.isVisible()) return;
  if (await channel.isVisible()) {
    await channel.check();
    await page.getByRole('button', { name: t('authentication.channel.send') }).click();
  }
  await expect(code).toBeVisible();
  let found = '';
  await expect
    .poll(async () => {
      const fresh = (await mailsTo(who.email)).slice(before);
      found = fresh.map((mail) => /verification code is (\d{6})/.exec(mail.text ?? '')?.[1] ?? '').filter(Boolean).at(-1) ?? '';
      return found;
    }, { timeout: 20_000 })
    .not.toBe('');
  await code.fill(found);
  await page.getByRole('button', { name: t('authentication.code.verify') }).click();
}

test.describe('against the real server', () => {
  test.use({ geolocation: { latitude: -33.8156, longitude: 151.0029 }, permissions: ['geolocation'] });

  test('booking an MRI with a pacemaker answer is denied with the provider message', async ({ page }) => {
    const csp = watchCsp(page);
    await page.goto('/');
    await chooseExam(page, 'MRI knee');
    await page.getByRole('button', { name: t('action.continue') }).click();
    const dialog = page.getByRole('dialog', { name: MRI_SAFETY.title });
    await expect(dialog).toBeVisible({ timeout: 15_000 });
    await expect(progress(dialog, 0, 5)).toHaveCount(1);
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

  test('without a pacemaker the MRI is booked, the answers are on the appointment, and /q shows the pending questionnaire, then all answered', async ({ page }) => {
    await page.goto('/');
    await chooseExam(page, 'MRI knee');
    await page.getByRole('button', { name: t('action.continue') }).click();
    await answerMriSafety(page, 'No');

    await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
    await page.getByRole('button', { name: /^Choose / }).first().click();
    const firstTime = page.locator('.pp-slot').first();
    await expect(firstTime).toBeVisible({ timeout: 15_000 });
    await firstTime.click();
    await expect(page.getByText(/is held for you until/)).toBeVisible();
    await page.getByRole('button', { name: t('action.continue') }).click();

    await expect(page.getByRole('heading', { level: 2, name: t('booking.details.title') })).toBeVisible();
    await page.getByRole('combobox', { name: t('booking.details.fields.title') }).selectOption(PATIENT.title);
    await page.getByRole('textbox', { name: t('booking.details.fields.firstName') }).fill(PATIENT.firstName);
    await page.getByRole('textbox', { name: t('booking.details.fields.lastName') }).fill(PATIENT.lastName);
    await page.getByLabel(t('booking.details.fields.dateOfBirth')).fill(PATIENT.dateOfBirth);
    await page.getByRole('textbox', { name: t('booking.details.fields.email') }).fill(PATIENT.email);
    await page.getByRole('textbox', { name: t('booking.details.fields.contactNumber') }).fill(PATIENT.contactNumber);
    await page.getByRole('textbox', { name: t('booking.details.fields.postalCode') }).fill(PATIENT.postalCode);
    const medicare = page.getByRole('textbox', { name: t('booking.details.fields.medicareNumber') });
    if (await medicare.isVisible()) await medicare.fill(PATIENT.medicareNumber);
    await page.getByRole('button', { name: t('booking.details.submit') }).click();

    await expect(page.getByText(t('booking.confirmation.booked'))).toBeVisible({ timeout: 15_000 });
    const href = (await page.getByRole('link', { name: t('booking.confirmation.view') }).getAttribute('href')) ?? '';
    const bookingKey = href.split('/').at(-1) ?? '';
    expect(bookingKey).toMatch(/^[A-Za-z0-9_-]{16,}$/);

    // /q: sign in to the booking, then its pending questionnaire opens.
    await page.goto(`/q?bookingKey=${bookingKey}`);
    await expect(page).toHaveURL(/\/authentication\?/);
    await signIn(page, PATIENT);
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
  });

  test('a plain walk through every booking-time questionnaire of an X-ray reaches the times', async ({ page }) => {
    await page.goto('/');
    await chooseExam(page, 'X-ray chest');
    await page.getByRole('button', { name: t('action.continue') }).click();
    const location = page.getByRole('heading', { level: 2, name: t('booking.location.title') });
    expect(await answerQuestionnairesPlainly(page, location)).toBeGreaterThan(0);
    await expect(location).toBeVisible();
  });
});
