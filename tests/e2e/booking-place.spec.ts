import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { NEAR_PARRAMATTA, PHONE_AND_DESKTOP, startMriKneeBooking } from './helpers/booking';
import { t } from './helpers/i18n';

/**
 * The booking keeps the patient's place (docs/rules/booking.md#the-calendar-on-the-page): no choice scrolls the page to the
 * top, the times come into view after the clinic, the step's primary action stays in reach on a
 * phone, and the keyboard alone books an ultrasound in a bounded number of Tab presses with a
 * visible focus indicator at every stop.
 */

/** Counts, in the page, every time the document is scrolled back to its very top. */
async function watchScrollTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const win = window as unknown as { ppTopHits: number };
    win.ppTopHits = 0;
    window.addEventListener('scroll', () => {
      if (window.scrollY === 0) win.ppTopHits += 1;
    });
  });
}

async function topHits(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { ppTopHits: number }).ppTopHits);
}

/** Makes a choice away from the top of the page and checks the page did not jump back up. */
async function chooseInPlace(page: Page, control: Locator, what: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  const hits = await topHits(page);
  await control.click();
  // The times are scrolled to 100 ms after a selection; give the page time to settle.
  await page.waitForTimeout(600);
  const after = await page.evaluate(() => window.scrollY);
  if (before > 0) {
    expect(await topHits(page), `${what}: the page went back to the top`).toBe(hits);
    expect(after, `${what}: scrollY ${before} -> ${after}`).toBeGreaterThan(0);
  }
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const size of PHONE_AND_DESKTOP) {
  test.describe(`on a ${size.name} (${size.viewport.width}x${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.hasTouch, isMobile: size.isMobile, ...NEAR_PARRAMATTA });

    test('booking an MRI with its screening never jumps to the top, and the times come into view after the clinic', async ({ page }) => {
      test.setTimeout(120_000);
      // From the first request on: the page itself (zod's eval probe) and the questionnaire.
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/.test(message.text())) cspViolations.push(message.text());
      });
      await startMriKneeBooking(page);
      await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
      await watchScrollTop(page);

      // A clinic well down the list: its times come into view instead of staying below every card.
      const choices = page.getByRole('button', { name: /^Choose / });
      await expect(choices.first()).toBeVisible();
      const clinic = choices.nth(Math.min(2, (await choices.count()) - 1));
      await chooseInPlace(page, clinic, 'choosing a clinic');
      // The first day with free times opens by itself, and its times are what comes into view.
      await expect(page.locator('.pp-calendar').getByRole('heading', { level: 3 })).toHaveText(/^Free times at /);
      await expect(page.locator('.pp-calendar .pp-slot').first()).toBeInViewport();

      const calendar = page.locator('.pp-calendar');
      await chooseInPlace(page, calendar.getByRole('button', { name: t('booking.calendar.nextWeek') }), 'next week');
      const day = calendar.locator('.pp-day:not([disabled])').first();
      await expect(day).toBeVisible({ timeout: 15_000 });
      await chooseInPlace(page, day, 'choosing a day');
      const time = calendar.locator('.pp-slot').first();
      await expect(time).toBeVisible();
      // One time format on the page: "9:30 am" in en-AU, as the held time says it.
      await expect(time).toHaveText(/^\d{1,2}:\d{2}\s(am|pm)$/);
      await chooseInPlace(page, time, 'choosing a time');
      await expect(page.getByText(/is held for you until/)).toBeVisible();
      // The step's primary action is in reach without scrolling back.
      await expect(page.getByRole('button', { name: t('action.continue') })).toBeInViewport();

      await chooseInPlace(page, calendar.getByRole('button', { name: t('booking.calendar.month') }), 'the month view');
      await expect(calendar.getByRole('table')).toBeVisible();
      await chooseInPlace(page, calendar.getByRole('button', { name: t('booking.calendar.week') }), 'the week view');
      await expectNoSidewaysScroll(page);
      await expectNoSeriousA11yViolations(page, `clinic and time, ${size.name}`);
      expect(cspViolations, 'CSP violations from the home page to the times').toEqual([]);
    });
  });
}

/** Whether the focused element (or the label or box drawn around it) shows a focus indicator. */
async function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const drawn = (element: Element | null): boolean => {
      if (!element) return false;
      const style = getComputedStyle(element);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || style.boxShadow !== 'none';
    };
    const focused = document.activeElement;
    if (!focused || focused === document.body) return false;
    return drawn(focused) || drawn(focused.closest('label')) || drawn(focused.parentElement);
  });
}

test.describe('with the keyboard alone on a desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 }, ...NEAR_PARRAMATTA });

  // The keyboard books this journey in at most 40 Tab presses (85 before the steps' order changed; the log
  // line gives each step). Continue follows the chosen exams, before browsing by type and body
  // part; the clinic list comes before the map, whose markers are one stop; the details form comes
  // before the documents (docs/rules/booking.md#keyboard).
  test('an ultrasound is booked with the keyboard alone, every stop showing where the focus is', async ({ page }) => {
    test.setTimeout(120_000);
    let tabs = 0;
    const hidden: string[] = [];
    /** Presses Tab until the target has the focus, checking the indicator at every stop. */
    const steps: string[] = [];
    const tabTo = async (target: Locator, what: string) => {
      const start = tabs;
      for (let presses = 0; presses < 40; presses += 1) {
        await page.keyboard.press('Tab');
        tabs += 1;
        // A focus stop is an element that has the focus (a date field, leaving its last part, can
        // leave none focused for a moment: that is no stop, though the Tab is counted).
        const focused = await page.evaluate(
          () => document.activeElement !== document.body && document.activeElement?.matches(':focus') === true,
        );
        if (focused && !(await focusIsVisible(page))) {
          hidden.push(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? 'nothing'));
        }
        if (await target.evaluate((element) => element === document.activeElement)) {
          steps.push(`${what} ${tabs - start}`);
          return;
        }
      }
      throw new Error(`Tab never reached ${what}`);
    };

    await page.goto('/');
    const search = page.getByRole('searchbox', { name: t('booking.exams.search') });
    await expect(search).toBeVisible();
    await tabTo(search, 'the exam search');
    await page.keyboard.type('ultrasound abdomen');
    const exam = page.getByRole('checkbox', { name: /^Ultrasound abdomen\b/ });
    await tabTo(exam, 'the exam found');
    await page.keyboard.press('Space');
    await expect(exam).toBeChecked();
    await tabTo(page.getByRole('button', { name: t('action.continue') }), 'Continue');
    await page.keyboard.press('Enter');

    const location = page.getByRole('heading', { level: 2, name: t('booking.location.title') });
    await expect(location).toBeFocused();
    const clinic = page.getByRole('button', { name: /^Choose / }).first();
    await expect(clinic).toBeVisible();
    await tabTo(clinic, 'the nearest clinic');
    await page.keyboard.press('Enter');
    const time = page.locator('.pp-slot').first();
    await expect(time).toBeVisible({ timeout: 15_000 });
    await tabTo(time, 'the first free time');
    await page.keyboard.press('Enter');
    await expect(page.getByText(/is held for you until/)).toBeVisible();
    await tabTo(page.getByRole('button', { name: t('action.continue') }), 'Continue to the details');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: t('booking.details.title') })).toBeFocused();
    // Tab once the patient sees the step: the form, and the documents (their own chunk) after it.
    const title = page.getByRole('combobox', { name: t('booking.details.fields.title') });
    await expect(title).toBeVisible();
    await expect(page.getByRole('heading', { name: t('attachments.title'), exact: true })).toBeVisible();
    await tabTo(title, 'the title');
    await page.keyboard.press('M');
    const fields: [string, string][] = [
      ['booking.details.fields.firstName', 'Kira'],
      ['booking.details.fields.lastName', 'Keyboard'],
    ];
    for (const [label, value] of fields) {
      await tabTo(page.getByRole('textbox', { name: t(label) }), label);
      await page.keyboard.type(value);
    }
    await tabTo(page.getByLabel(t('booking.details.fields.dateOfBirth')), 'the date of birth');
    await page.keyboard.type('02111968');
    for (const [label, value] of [
      ['booking.details.fields.email', 'kira.keyboard@example.com'],
      ['booking.details.fields.contactNumber', '0491570157'],
      ['booking.details.fields.postalCode', '2150'],
    ] as const) {
      await tabTo(page.getByRole('textbox', { name: t(label) }), label);
      await page.keyboard.type(value);
    }
    await tabTo(page.getByRole('button', { name: t('booking.details.submit') }), 'Book appointment');
    await page.keyboard.press('Enter');
    await expect(page.getByText(t('booking.confirmation.booked'))).toBeVisible({ timeout: 15_000 });

    test.info().annotations.push({ type: 'tab presses', description: String(tabs) });
    console.log(`keyboard-only ultrasound booking: ${tabs} Tab presses (${steps.join(', ')})`);
    expect(hidden, 'stops without a visible focus indicator').toEqual([]);
    expect(tabs, `Tab presses (${steps.join(', ')})`).toBeLessThanOrEqual(40);
  });
});
