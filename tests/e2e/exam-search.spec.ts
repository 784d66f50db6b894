import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { caseOutcome, EXAM_SEARCH_CASES, type ExamSearchCase } from '../web/features/booking/exam-search-cases';

/**
 * The exam search in the browser (docs/rules/booking.md#exam-search): the query table typed into
 * the real search field of step 0 against the seeded demo catalogue, the search code loaded only
 * when the field is first used, the found exams right after the field in the tab order, and the
 * way out when nothing matches. Axe on each state.
 */

const searchField = (page: Page) => page.getByRole('searchbox', { name: t('booking.exams.search') });
const listedSlugs = (page: Page) =>
  page.locator('.pp-exam-list > li').evaluateAll((items) => items.map((item) => item.getAttribute('data-exam') ?? ''));

function check(example: ExamSearchCase, found: string[]): void {
  const { actual, expected } = caseOutcome(example, found);
  expect(actual, example.query).toEqual(expected);
}

async function openExamStep(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
  await expect(searchField(page)).toBeVisible();
}

/** Focuses the search field and waits until the word search has loaded. */
async function useSearch(page: Page): Promise<void> {
  await searchField(page).focus();
  await expect(page.locator('.pp-exam-list')).toHaveAttribute('data-search-index', 'loaded');
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('loads the search code only when the field is first used', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await openExamStep(page);
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((url) => /exam-search/.test(url))).toEqual([]);
    await useSearch(page);
    expect(scripts.filter((url) => /exam-search/.test(url))).toHaveLength(1);
  });

  test('finds the expected exams for every query of the table', async ({ page }) => {
    test.setTimeout(120_000);
    await openExamStep(page);
    await useSearch(page);
    for (const example of EXAM_SEARCH_CASES) {
      await searchField(page).fill(example.query);
      await expect(async () => check(example, await listedSlugs(page))).toPass({ timeout: 5_000 });
    }
    await searchField(page).fill('knee mri');
    await expect(page.getByRole('status').filter({ hasText: t('booking.exams.matches', { count: 1, query: 'knee mri' }) })).toBeAttached();
    await expectNoSeriousA11yViolations(page, 'exam search results');
  });

  test('says when nothing matches and offers to clear the search or browse by body part', async ({ page }) => {
    await openExamStep(page);
    await useSearch(page);
    await searchField(page).fill('pizza');
    await expect(page.getByText(t('booking.exams.noMatch', { query: 'pizza' }))).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: t('booking.exams.matches', { count: 0, query: 'pizza' }) })).toBeAttached();
    await expectNoSeriousA11yViolations(page, 'exam search without results');

    await page.getByRole('button', { name: t('booking.exams.clearSearch') }).click();
    await expect(searchField(page)).toBeFocused();
    await expect(searchField(page)).toHaveValue('');
    expect((await listedSlugs(page)).length).toBeGreaterThanOrEqual(25);

    await searchField(page).fill('pizza');
    await page.getByRole('button', { name: t('booking.exams.browseBodyPart') }).click();
    await expect(page.getByRole('heading', { name: t('booking.exams.browseTitle') })).toBeFocused();
    await expect(searchField(page)).toHaveValue('');
  });
});

/** Presses Tab from the search field until the first listed exam has focus; each stop must show its focus. */
async function tabsToFirstExam(page: Page): Promise<number> {
  await searchField(page).fill('knee mri');
  const first = page.locator('.pp-exam-list > li').first().getByRole('checkbox');
  await expect(first).toBeVisible();
  await searchField(page).focus();
  for (let presses = 1; presses <= 10; presses++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      const style = element ? getComputedStyle(element) : null;
      return {
        firstExam: element?.closest('.pp-exam-list > li:first-child') !== null && element?.getAttribute('type') === 'checkbox',
        outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : 'none',
      };
    });
    expect(stop.outline, `focus visible at Tab ${presses}`).not.toMatch(/^none|\s0px$/);
    if (stop.firstExam) return presses;
  }
  return Number.POSITIVE_INFINITY;
}

for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
]) {
  test.describe(`tab order on a ${size.name}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });

    test('reaches the first found exam in one to three Tab presses from the search field', async ({ page }) => {
      await openExamStep(page);
      await useSearch(page);
      const presses = await tabsToFirstExam(page);
      expect(presses).toBeGreaterThanOrEqual(1);
      expect(presses).toBeLessThanOrEqual(3);
      await expectNoSeriousA11yViolations(page, `exam search on a ${size.name}`);
    });
  });
}
