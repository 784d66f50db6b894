import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * WCAG 2.0 to 2.2, levels A and AA. axe ships `target-size` (2.5.8, target size minimum) switched
 * off and tagged only wcag22aa, so it is named here and switched on explicitly.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface A11yOptions {
  /** Selectors axe leaves out (their content is checked where it is a page of its own). */
  exclude?: string[];
}

/**
 * Waits (at most 2 s) for the page's finite animations and transitions to end: axe judges colours
 * and positions as they are at that instant, and a fading step would read as low contrast.
 * Endless ones (spinners) are left running.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => {
      const timing = animation.effect?.getComputedTiming();
      return timing !== undefined && Number.isFinite(timing.endTime ?? Infinity) && animation.playState === 'running';
    });
    const ended = Promise.allSettled(finite.map((animation) => animation.finished));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
}

/** The serious and critical violations on the page as it has settled, one line per rule with its elements. */
export async function seriousA11yViolations(page: Page, options: A11yOptions = {}): Promise<string[]> {
  await settleAnimations(page);
  let builder = new AxeBuilder({ page });
  // A frame that runs no script (sandbox="") cannot answer axe, which would wait for it forever.
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder
    .options({ rules: { 'target-size': { enabled: true } } })
    .withTags(TAGS)
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 5)
        .join(', ')}${v.nodes.length > 5 ? ` and ${v.nodes.length - 5} more` : ''} [${v.nodes.length}]`,
  );
}

/**
 * Runs axe on the page as it is now and fails on any serious or critical violation,
 * listing each rule with the elements it found so the failure says what to fix.
 */
export async function expectNoSeriousA11yViolations(page: Page, context = '', options: A11yOptions = {}): Promise<void> {
  expect(await seriousA11yViolations(page, options), `axe violations on ${context || page.url()}`).toEqual([]);
}
