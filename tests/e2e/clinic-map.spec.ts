import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { answerQuestionnairesPlainly } from './helpers/questionnaires';

/**
 * The clinic step's map and location rules (docs/rules/booking.md#location and #the-clinic-list-and-map):
 * Leaflet on tiles served by the e2e server on this machine (scripts/e2e-server.mjs), markers
 * named after their clinics and linked to the cards, and no location window nobody asked for.
 */

// Step 1 restored from the link: X-ray chest is offered by every clinic, so the map has them all.
const CLINIC_STEP = '/?step=1&exams=xr-chest';

/** Counts the page's calls to the browser's geolocation (the real API still answers them). */
async function countGeolocationCalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const geolocation = navigator.geolocation;
    const original = geolocation.getCurrentPosition.bind(geolocation);
    Object.assign(window, { geolocationCalls: 0 });
    geolocation.getCurrentPosition = (...args: Parameters<Geolocation['getCurrentPosition']>) => {
      Object.assign(window, { geolocationCalls: (window as unknown as { geolocationCalls: number }).geolocationCalls + 1 });
      original(...args);
    };
  });
}

const geolocationCalls = (page: Page) => page.evaluate(() => (window as unknown as { geolocationCalls: number }).geolocationCalls);

function mapOf(page: Page): Locator {
  return page.getByRole('group', { name: t('booking.map.label') });
}

/** Opens the clinic step and waits for the map's markers and tiles. */
async function openClinicStep(page: Page): Promise<Locator> {
  await countGeolocationCalls(page);
  await page.goto(CLINIC_STEP);
  // The first page of a fresh server may be slow on a busy machine.
  await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible({ timeout: 30_000 });
  const map = mapOf(page);
  await expect(map.locator('.leaflet-marker-icon').first()).toBeVisible({ timeout: 15_000 });
  await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  return map;
}

/** No two clinic names drawn on the map cover each other (a name that would is shrunk to its pin). */
async function expectNamesApart(map: Locator): Promise<void> {
  const boxes = await map
    .locator('.leaflet-marker-icon.pp-map-marker:not(.pp-map-marker-compact)')
    .evaluateAll((markers) => markers.map((marker) => marker.getBoundingClientRect().toJSON() as DOMRect));
  for (const [index, a] of boxes.entries()) {
    for (const b of boxes.slice(index + 1)) {
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      expect(apart, `names at ${a.left},${a.top} and ${b.left},${b.top} overlap`).toBe(true);
    }
  }
}

/** The lowest scrollY seen from now on, to prove a choice never sends the page to the top. */
async function watchScroll(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const state = { min: window.scrollY };
    Object.assign(window, { scrollWatch: state });
    window.addEventListener('scroll', () => {
      state.min = Math.min(state.min, window.scrollY);
    });
  });
  return () => page.evaluate(() => (window as unknown as { scrollWatch: { min: number } }).scrollWatch.min);
}

for (const size of [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, hasTouch: false, isMobile: false },
]) {
  test.describe(`the clinic map on a ${size.name} (${size.viewport.width} x ${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.hasTouch, isMobile: size.isMobile });

    test('sorts from the default region without asking, draws named markers on local tiles, and axe finds nothing serious', async ({
      page,
    }) => {
      const map = await openClinicStep(page);
      await expect(page.getByText(t('booking.location.fromDefault', { label: 'Sydney' }))).toBeVisible();
      // Nobody asked for the position: no window, no browser prompt.
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(await geolocationCalls(page)).toBe(0);
      // Tiles come from this machine only.
      const sources = await map.locator('img.leaflet-tile').evaluateAll((tiles) => tiles.map((tile) => (tile as HTMLImageElement).src));
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) expect(source).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\d+\/\d+\/\d+\.png$/);
      // Each marker is a button named as it reads: the clinic's name, or "N clinics" for a cluster.
      const markers = map.locator('.leaflet-marker-icon.pp-map-marker');
      expect(await markers.count()).toBeGreaterThan(0);
      for (const marker of await markers.all()) {
        const name = (await marker.textContent())?.trim() ?? '';
        expect(name.length).toBeGreaterThan(0);
        await expect(marker).toHaveAttribute('role', 'button');
        await expect(map.getByRole('button', { name, exact: true })).toHaveCount(1);
      }
      // The markers and clusters are one Tab stop, a toolbar (docs/rules/booking.md#the-clinic-list-and-map).
      await expect(map.getByRole('toolbar', { name: t('booking.map.markers') })).toHaveCount(1);
      await expect(map.locator('.leaflet-marker-icon[tabindex="0"]')).toHaveCount(1);
      await expectNamesApart(map);
      for (const cluster of await map.locator('.leaflet-marker-icon.pp-map-cluster').all()) {
        const count = Number(await cluster.locator('[aria-hidden="true"]').textContent());
        await expect(cluster).toHaveAccessibleName(t('booking.map.cluster', { count }));
      }
      await expectNoSeriousA11yViolations(page, `clinic step with the map (${size.name})`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.viewport.width);
    });

    test('a marker chooses its clinic and brings its times into view without jumping to the top; a card highlights its marker', async ({
      page,
    }) => {
      const map = await openClinicStep(page);
      await map.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 40));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      const lowestScroll = await watchScroll(page);

      const marker = map.locator('.leaflet-marker-icon.pp-map-marker').first();
      const name = (await marker.textContent())?.trim() ?? '';
      await marker.click();
      const chosen = page.getByRole('button', { name: t('booking.location.chosenClinic', { name }) });
      await expect(chosen).toHaveAttribute('aria-pressed', 'true');
      await expect(map.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', 'true');
      // After a clinic is chosen its times come into view (the next decision), not its card.
      await expect(page.locator('.pp-calendar .pp-slot').first()).toBeInViewport();
      await page.waitForTimeout(800); // the card's smooth scroll and the map's pan have ended
      expect(await lowestScroll()).toBeGreaterThan(0);

      // Another clinic chosen on its card: its marker is highlighted, the map on it.
      const other = page.getByRole('button', { name: /^Choose / }).first();
      const otherName = ((await other.getAttribute('aria-label')) ?? '').replace(/^Choose /, '');
      await other.click();
      const otherMarker = map.getByRole('button', { name: otherName, exact: true });
      await expect(otherMarker).toHaveClass(/pp-map-marker-selected/);
      await expect(otherMarker).toHaveAttribute('aria-pressed', 'true');
      // One marker reads as chosen (the first one may have left the map's view, and the DOM).
      await expect(map.locator('.pp-map-marker[aria-pressed="true"]')).toHaveCount(1);
      expect(await lowestScroll()).toBeGreaterThan(0);
      await expectNoSeriousA11yViolations(page, `clinic step with a clinic chosen (${size.name})`);
    });

    test('the keyboard reaches the markers in one stop, moves between them with the arrows and chooses with Enter', async ({ page }) => {
      const map = await openClinicStep(page);
      const icons = map.locator('.leaflet-marker-icon');
      await expect(icons.nth(1)).toBeVisible();
      await page.getByRole('button', { name: t('booking.map.reset') }).focus();
      // The map itself (arrows pan it), then the markers' one stop.
      await page.keyboard.press('Tab');
      await expect(map.locator('.pp-map-canvas')).toBeFocused();
      await page.keyboard.press('Tab');
      const onIcon = map.locator('.leaflet-marker-icon:focus');
      await expect(onIcon).toHaveCount(1);
      // Marked, since two clusters may read alike ("2 clinics").
      await onIcon.evaluate((element) => element.setAttribute('data-first-stop', ''));
      await page.keyboard.press('ArrowRight');
      await expect(onIcon).toHaveCount(1);
      await expect(onIcon).not.toHaveAttribute('data-first-stop');
      // On to a clinic (a cluster's Enter would zoom in instead).
      const focused = map.locator('.pp-map-marker:focus');
      for (let press = 0; press < (await icons.count()) && (await focused.count()) === 0; press += 1) {
        await page.keyboard.press('ArrowRight');
      }
      await expect(focused).toHaveCount(1);
      const name = (await focused.textContent())?.trim() ?? '';
      expect(await focused.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
      // The next Tab leaves the markers for the zoom buttons.
      await page.keyboard.press('Tab');
      await expect(map.getByRole('button', { name: t('booking.map.zoomIn') })).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(focused).toHaveCount(1);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('button', { name: t('booking.location.chosenClinic', { name }) })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      // The focus goes on to the chosen clinic's times, where the keyboard continues.
      await expect(page.locator('.pp-calendar').getByRole('heading', { level: 3 })).toBeFocused();
    });

    test('"Use my location" asks the browser, and only its failure opens the window with the postcode', async ({ page }) => {
      await openClinicStep(page);
      await page.getByRole('button', { name: t('booking.location.useMyLocation') }).click();
      const unable = page.getByRole('dialog', { name: t('booking.location.unableTitle') });
      await expect(unable).toBeVisible();
      expect(await geolocationCalls(page)).toBe(1);
      await expectNoSeriousA11yViolations(page, `unable to locate (${size.name})`);
      await unable.getByRole('button', { name: t('booking.location.usePostcode') }).click();
      const postcode = page.getByRole('dialog', { name: t('booking.location.postcodeTitle') });
      await postcode.getByRole('textbox', { name: t('booking.location.postcode') }).fill('2150');
      await postcode.getByRole('button', { name: t('booking.location.find') }).click();
      await expect(page.getByText(t('booking.location.fromPostcode'))).toBeVisible();
      await expect(page.locator('.pp-clinic-card h4').first()).toHaveText('Parramatta');
    });
  });
}

test.describe('with the position already shared with the site', () => {
  test.use({ geolocation: { latitude: -33.8156, longitude: 151.0029 }, permissions: ['geolocation'] });

  test('the browser position sorts the clinics without a prompt or a window', async ({ page }) => {
    await openClinicStep(page);
    await expect(page.getByText(t('booking.location.fromBrowser'))).toBeVisible();
    await expect(page.locator('.pp-clinic-card h4').first()).toHaveText('Parramatta');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('embedded in a provider page', () => {
  test('no location window opens unasked inside /iframe', async ({ page }) => {
    await page.goto('/iframe/advanced-booking');
    await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill('X-ray chest');
    await page.getByRole('checkbox', { name: /^X-ray chest\b/ }).check();
    await page.getByRole('button', { name: t('action.continue') }).click();
    await answerQuestionnairesPlainly(page, page.getByRole('heading', { level: 2, name: t('booking.location.title') }));
    await expect(page.locator('.pp-clinic-card').first()).toBeVisible();
    await expect(mapOf(page).locator('.leaflet-marker-icon').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
