import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

type Scope = Page | FrameLocator;

/** The open questionnaire survey modal, whatever its title. */
export function surveyDialog(scope: Scope): Locator {
  return scope.locator('dialog.pp-survey-dialog[open]');
}

/** Answers one radio group by the label of its option. */
export async function chooseRadio(dialog: Locator, question: string | RegExp, option: string): Promise<void> {
  const radio = dialog.getByRole('radiogroup', { name: question }).getByRole('radio', { name: option, exact: true });
  await pressToCheck(radio);
  await expect(radio).toBeChecked();
}

/** Ticks one option of a choose-any-of (checkbox) question by its label. */
export async function tickOption(dialog: Locator, question: string | RegExp, option: string): Promise<void> {
  const box = dialog.getByRole('group', { name: question }).getByRole('checkbox', { name: option, exact: true });
  if (!(await box.isChecked())) await pressToCheck(box);
  await expect(box).toBeChecked();
}

/** SurveyJS keeps its radio and checkbox inputs visually hidden: focus one and press Space. */
async function pressToCheck(input: Locator): Promise<void> {
  await input.focus();
  await input.press('Space');
}

/**
 * Answers a yes/no question. Every yes/no question (SurveyJS booleans too) is one radio group,
 * Yes then No (src-web/features/questionnaires/yes-no-normaliser.ts).
 */
export async function chooseBoolean(dialog: Locator, question: string | RegExp, answer: 'Yes' | 'No'): Promise<void> {
  await chooseRadio(dialog, question, answer);
}

/** The CSP violations a page reports from now on: securitypolicyviolation events and console errors. */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) console.push(message.text());
  });
  const listen = () =>
    page.evaluate(() => {
      const store = window as unknown as { __ppCsp?: string[] };
      if (store.__ppCsp) return;
      store.__ppCsp = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        store.__ppCsp?.push(`${event.violatedDirective} ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
      });
    });
  await listen();
  return async () => {
    const events = await page.evaluate(() => (window as unknown as { __ppCsp?: string[] }).__ppCsp ?? []);
    return [...events, ...console];
  };
}

/**
 * Answers every questionnaire the booking flow opens with the "nothing to report" answers (No,
 * Not applicable, a plain weight and date), page by page, until none is open. Used by journeys
 * that are about booking rather than questionnaires; returns how many were answered.
 */
export async function answerQuestionnairesPlainly(scope: Scope, next: Locator): Promise<number> {
  let answered = 0;
  for (let round = 0; round < 10; round += 1) {
    const dialog = surveyDialog(scope);
    await expect(dialog.or(next).first()).toBeVisible({ timeout: 15_000 });
    if (!(await dialog.isVisible())) return answered;
    for (const group of await dialog.getByRole('radiogroup').all()) {
      const preferred = ['No', 'Not applicable', 'I have never had contrast'];
      let done = false;
      for (const label of preferred) {
        const radio = group.getByRole('radio', { name: label, exact: true });
        if ((await radio.count()) > 0) {
          await pressToCheck(radio);
          done = true;
          break;
        }
      }
      if (!done) await pressToCheck(group.getByRole('radio').first());
    }
    // A required choose-any-of question offers None; otherwise the first option is ticked.
    for (const group of await dialog
      .getByRole('group')
      .filter({ has: dialog.page().getByRole('checkbox') })
      .all()) {
      const none = group.getByRole('checkbox', { name: 'None', exact: true });
      const box = (await none.count()) > 0 ? none : group.getByRole('checkbox').first();
      if (!(await box.isChecked())) await pressToCheck(box);
    }
    for (const number of await dialog.getByRole('spinbutton').all()) await number.fill('70');
    for (const date of await dialog.locator('input[type="date"]').all()) await date.fill('2026-01-05');
    const nextPage = dialog.getByRole('button', { name: 'Next', exact: true });
    if (await nextPage.isVisible()) {
      await nextPage.click();
      continue;
    }
    await dialog.getByRole('button', { name: /^(Complete|Submit)$/ }).click();
    answered += 1;
    await expect(dialog.getByRole('heading', { level: 2 }))
      .toBeHidden({ timeout: 10_000 })
      .catch(() => undefined);
  }
  return answered;
}
