import { expect, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe';

/** The smallest touch target the kiosk allows, in CSS pixels (docs/rules/kiosk.md#the-kiosk-shell). */
export const KIOSK_TARGET_PX = 64;

/** Interactive elements a patient can touch, where they are shown. */
const TARGETS =
  'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="radio"], [role="checkbox"], [role="link"]';

interface Measured {
  scrollWidth: number;
  clientWidth: number;
  links: string[];
  small: string[];
}

/**
 * What every kiosk screen must be, checked as the patient meets it: no sideways scroll, the
 * primary action inside the first screen (above the sticky bottom bar, without scrolling), no
 * link leaving the flow, no touch target under 64x64 px, and axe clean.
 */
export async function expectKioskScreen(page: Page, name: string, primary: Locator): Promise<void> {
  await expect(primary, `${name}: the primary action`).toBeVisible();
  const measured = await page.evaluate(
    ({ selector, minimum }): Measured => {
      const shown = (element: Element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !element.closest('[aria-hidden="true"]');
      };
      const describe = (element: Element) => {
        const box = element.getBoundingClientRect();
        const label = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? '';
        return `${element.tagName.toLowerCase()} "${label}" ${Math.round(box.width)}x${Math.round(box.height)}`;
      };
      return {
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        links: [...document.querySelectorAll('a[href]')].filter(shown).map((link) => link.getAttribute('href') ?? ''),
        small: [...document.querySelectorAll(selector)]
          .filter(shown)
          // A radio or checkbox drawn inside a bigger label is touched through its label.
          .filter(
            (element) => !(element instanceof HTMLInputElement && ['radio', 'checkbox'].includes(element.type) && element.closest('label')),
          )
          .filter((element) => {
            const box = element.getBoundingClientRect();
            return box.width < minimum - 0.5 || box.height < minimum - 0.5;
          })
          .map(describe),
      };
    },
    { selector: TARGETS, minimum: KIOSK_TARGET_PX },
  );
  expect(measured.scrollWidth, `${name}: no sideways scroll`).toBeLessThanOrEqual(measured.clientWidth);
  expect(measured.links, `${name}: no link leaves the check-in`).toEqual([]);
  expect(measured.small, `${name}: every target at least ${KIOSK_TARGET_PX} px`).toEqual([]);

  // Inside the first screen: the page at its top, the action above the sticky bottom bar.
  const scrolled = await page.evaluate(() => window.scrollY);
  const box = await primary.boundingBox();
  const bar = await page.locator('.pp-kiosk-bottom').boundingBox();
  const viewport = page.viewportSize();
  if (box === null || viewport === null) throw new Error(`${name}: the primary action has no box`);
  // An action in the bottom bar itself (Start again) only has to be inside the screen.
  const inBar = await primary.evaluate((element) => element.closest('.pp-kiosk-bottom') !== null);
  const visibleBottom = bar === null || inBar ? viewport.height : bar.y;
  expect(scrolled === 0 || box.y >= 0, `${name}: the primary action is on the first screen`).toBe(true);
  expect(box.y + box.height, `${name}: the primary action is above the bottom bar`).toBeLessThanOrEqual(visibleBottom + 1);
  await expectNoSeriousA11yViolations(page, `kiosk ${name}`);
}
