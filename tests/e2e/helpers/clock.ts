import type { Page } from '@playwright/test';

/**
 * Stops the page's installed clock (it ran at real speed until now) and then moves the mouse, so
 * the last activity is the paused instant: from here only fastForward moves time. Without it, a
 * slow axe run or a loaded machine lets a 10 s countdown run out on its own.
 */
export async function pauseClockAfterActivity(page: Page): Promise<void> {
  await page.clock.pauseAt(new Date(Date.now() + 2_000));
  await page.mouse.move(40, 60);
  await page.mouse.move(48, 64);
}
