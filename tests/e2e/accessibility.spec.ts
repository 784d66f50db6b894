import { expect, test, type Locator, type Page } from '@playwright/test';
import { seriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { answerQuestionnairesPlainly } from './helpers/questionnaires';

/**
 * Accessibility across the booking flow and the shell, on a phone and a desktop: axe (WCAG 2.2 AA,
 * target size included) on every step and on /contact, focus moved to each new step's heading,
 * a visible focus indicator on every field, and an environment badge that never hides content.
 */

const VIEWPORTS = [
  { name: 'phone', width: 375, height: 667 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** A position near Parramatta passed in the link, so no location prompt interrupts the flow. */
const HOME = '/?lat=-33.8156&lng=151.0029';

const stepHeading = (page: Page, key: string): Locator => page.getByRole('heading', { level: 2, name: t(key) });

async function chooseExam(page: Page, name: string) {
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill(name);
  await page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) }).check();
}

/** Presses a button from the keyboard, as a patient without a mouse does. */
async function pressButton(page: Page, name: string) {
  await page.getByRole('button', { name }).focus();
  await page.keyboard.press('Enter');
}

async function expectHeadingFocused(page: Page, key: string) {
  await expect(stepHeading(page, key)).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
}

test('the axe check reports targets smaller than 24 by 24 pixels that sit close together', async ({ page }) => {
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Targets</title></head><body><main>' +
      '<button style="width:12px;height:12px;padding:0;margin:0">1</button><button style="width:12px;height:12px;padding:0;margin:0">2</button>' +
      '</main></body></html>',
  );
  expect((await seriousA11yViolations(page)).join('\n')).toMatch(/^target-size \(serious\)/m);
});

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} x ${viewport.height} (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('axe finds nothing serious on any booking step (exams, clinic and map, time, details, confirmation)', async ({ page }) => {
      const found: Record<string, string[]> = {};
      const check = async (step: string) => {
        const violations = await seriousA11yViolations(page);
        if (violations.length > 0) found[step] = violations;
      };

      await page.goto(HOME);
      await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
      await chooseExam(page, 'X-ray chest');
      await check('exams');
      await page.getByRole('button', { name: t('action.continue') }).click();
      await answerQuestionnairesPlainly(page, stepHeading(page, 'booking.location.title'));

      await expect(page.getByRole('group', { name: t('booking.map.label') })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Choose / }).first()).toBeVisible();
      await check('clinic and map');
      // The farthest clinic and its last listed time: the other journeys book the nearest clinic's first times.
      await page
        .getByRole('button', { name: /^Choose / })
        .last()
        .click();
      await expect(page.locator('.pp-slot').first()).toBeVisible({ timeout: 15_000 });
      await check('time');
      await page.locator('.pp-slot').last().click();
      await expect(page.getByText(/is held for you until/)).toBeVisible();
      await check('time held');
      await page.getByRole('button', { name: t('action.continue') }).click();

      await expect(stepHeading(page, 'booking.details.title')).toBeVisible();
      await check('details');
      await page.getByRole('combobox', { name: t('booking.details.fields.title') }).selectOption('Mr');
      await page.getByRole('textbox', { name: t('booking.details.fields.firstName') }).fill('Axel');
      await page
        .getByRole('textbox', { name: t('booking.details.fields.lastName') })
        .fill(viewport.name === 'phone' ? 'Phoneview' : 'Deskview');
      const dateOfBirth = page.getByLabel(t('booking.details.fields.dateOfBirth'));
      await dateOfBirth.click();
      expect(await dateOfBirth.evaluate((input) => getComputedStyle(input).outlineStyle), 'date of birth focus ring').not.toBe('none');
      await dateOfBirth.fill('1975-04-12');
      await page.getByRole('textbox', { name: t('booking.details.fields.email') }).fill(`axel.${viewport.name}@example.com`);
      await page.getByRole('textbox', { name: t('booking.details.fields.contactNumber') }).fill('0491570156');
      await page.getByRole('textbox', { name: t('booking.details.fields.postalCode') }).fill('2150');
      await page.getByRole('button', { name: t('booking.details.submit') }).click();

      await expect(page.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });
      await check('confirmation');
      expect(found).toEqual({});
    });

    test('axe finds nothing serious on /contact', async ({ page }) => {
      await page.goto('/contact');
      await expect(page.locator('.pp-clinics')).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);
    });

    test('the environment badge covers neither the banner nor the page', async ({ page }) => {
      for (const corner of ['top-left', 'top-right', 'bottom-left', 'bottom-right']) {
        // The demo provider puts the badge top-left; the other corners come from the served configuration.
        await page.route('**/contact', async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace('"bannerCorner":"top-left"', `"bannerCorner":"${corner}"`);
          await route.fulfill({ response, body: html });
        });
        await page.goto('/contact');
        await expect(page.locator('.pp-clinics')).toBeVisible();
        const badge = page.getByRole('complementary', { name: t('environment.label') });
        await expect(badge).toHaveClass(new RegExp(`pp-environment-${corner}`));
        const covered = await badge.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const others = [...document.querySelectorAll('.pp-banner-content, .pp-banner-close, header, main, footer')];
          const page = { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY, left: box.left, right: box.right };
          return others
            .filter((other) => {
              const r = other.getBoundingClientRect();
              const o = { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right };
              return r.width > 0 && o.left < page.right && page.left < o.right && o.top < page.bottom && page.top < o.bottom;
            })
            .map((other) => other.className || other.tagName);
        });
        expect(covered, corner).toEqual([]);
        // Scrolled to the end the badge still covers nothing (it is in the page's flow, not fixed).
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        expect(await badge.evaluate((element) => getComputedStyle(element).position)).not.toBe('fixed');
        await page.unroute('**/contact');
      }
    });
  });
}

test.describe('by keyboard on a desktop (1280 x 800)', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('each step change moves focus to the new step heading, and the date of birth shows its focus', async ({ page }) => {
    await page.goto(HOME);
    await chooseExam(page, 'X-ray knee');
    await pressButton(page, t('action.continue'));
    await answerQuestionnairesPlainly(page, stepHeading(page, 'booking.location.title'));
    await expectHeadingFocused(page, 'booking.location.title');
    // Once the step has loaded, the next Tab stays in the step instead of landing in the footer.
    await expect(page.getByRole('button', { name: /^Choose / }).first()).toBeVisible();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

    await page
      .getByRole('button', { name: /^Choose / })
      .last()
      .focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.pp-slot').first()).toBeVisible({ timeout: 15_000 });
    await page.locator('.pp-slot').last().focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/is held for you until/)).toBeVisible();
    await pressButton(page, t('action.continue'));
    await expectHeadingFocused(page, 'booking.details.title');

    // Every field, the date of birth included, shows a visible focus indicator when reached by Tab.
    const dateOfBirth = page.getByLabel(t('booking.details.fields.dateOfBirth'));
    for (let presses = 0; presses < 20 && !(await dateOfBirth.evaluate((input) => input === document.activeElement)); presses += 1) {
      await page.keyboard.press('Tab');
    }
    await expect(dateOfBirth).toBeFocused();
    const ring = await dateOfBirth.evaluate((input) => {
      const style = getComputedStyle(input);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
  });
});
