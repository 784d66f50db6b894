import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import {
  DEMO_ADMIN,
  DEMO_KIOSK_ADMIN,
  DEMO_REFERRER,
  DEMO_STAFF,
  expectStaffMenu,
  signInThroughPopup,
  type DemoAccount,
} from './helpers/staff';

/**
 * Each role finds its tools (docs/rules/staff-access.md#staff-home): signed in from the
 * navigation at 1440x900, every tool the role may use is in the account menu (two clicks away:
 * the menu, the tool) and opens a working page; no tool it may not use is offered.
 */
test.use({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });

const name = (tool: string) => t(`staff.tools.${tool}.name`);

/** Where each tool goes (src-web/shell/staff-tools.ts). */
const ADDRESS: Record<string, RegExp> = {
  staffHome: /\/staff$/,
  bookForPatient: /\/\?staffBooking=true$/,
  callbacks: /\/staff\/callbacks$/,
  appointments: /\/staff\/appointments$/,
  bookingRequests: /\/staff\/booking-requests$/,
  screeningReviews: /\/staff\/screening-reviews$/,
  emailPreview: /\/preview-email$/,
  referrerFeedback: /\/staff\/referrer-feedback$/,
  kiosks: /\/staff\/kiosks$/,
};

async function signInFromNavigation(page: Page, account: DemoAccount): Promise<void> {
  await page.goto('/about');
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('nav.login') }).click(), account);
  await expectStaffMenu(page, account.username);
}

/** Opens the account menu and returns the tools it lists, by name. */
async function menuTools(page: Page, account: DemoAccount): Promise<string[]> {
  await page.getByRole('button', { name: `Account: ${account.username}` }).click();
  const menu = page.locator('.pp-staff-menu');
  await expect(menu).toBeVisible();
  return menu.getByRole('link').allTextContents();
}

/** Opens each tool from the menu (two clicks) and checks its page works for this account. */
async function openEachTool(page: Page, account: DemoAccount, tools: readonly string[]): Promise<void> {
  for (const tool of tools) {
    if (tool === 'adminPanel') continue; // another site: only its address is checked
    await page.goto('/about');
    await expectStaffMenu(page, account.username);
    await page.getByRole('button', { name: `Account: ${account.username}` }).click();
    await page
      .locator('.pp-staff-menu')
      .getByRole('link', { name: name(tool) })
      .click();
    await expect(page).toHaveURL(ADDRESS[tool] ?? /^$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
    // Reached as a permitted user: no sign-in or role refusal on the tool's page.
    await expect(page.locator('[data-problem="signInNeeded"], [data-problem="roleNeeded"]')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${tool}: no sideways scroll`).toBe(true);
  }
}

/** A staff member's tools, in the menus' order; an administrator has these and more. */
const STAFF_TOOLS = [
  'staffHome',
  'bookForPatient',
  'callbacks',
  'appointments',
  'bookingRequests',
  'screeningReviews',
  'emailPreview',
  'referrerFeedback',
] as const;

const ROLES = [
  { account: DEMO_STAFF, tools: STAFF_TOOLS },
  { account: DEMO_ADMIN, tools: [...STAFF_TOOLS, 'kiosks', 'adminPanel'] },
  { account: DEMO_KIOSK_ADMIN, tools: ['staffHome', 'kiosks'] },
] as const;

for (const { account, tools } of ROLES) {
  test(`${account.username} finds exactly their tools in the menu and on /staff, and each opens`, async ({ page }) => {
    // Each tool is a page load of its own (the admin has seven): the default minute is too short on a busy machine.
    test.setTimeout(120_000);
    await signInFromNavigation(page, account);
    expect(await menuTools(page, account)).toEqual(tools.map(name));
    await expectNoSeriousA11yViolations(page, `/about (${account.username}'s menu open)`);
    await page
      .locator('.pp-staff-menu')
      .getByRole('link', { name: name('staffHome') })
      .click();
    await expect(page).toHaveURL(/\/staff$/);
    const list = page.getByRole('list', { name: t('staff.home.toolsLabel') });
    await expect(list.getByRole('link')).toHaveText(tools.filter((tool) => tool !== 'staffHome').map(name));
    await expectNoSeriousA11yViolations(page, `/staff (${account.username})`);
    await openEachTool(page, account, tools);
  });
}

test('a referring doctor has Reports and FAQ in the header, and no staff tool anywhere', async ({ page }) => {
  await signInFromNavigation(page, DEMO_REFERRER);
  const nav = page.getByRole('navigation', { name: t('nav.label') });
  await expect(nav.getByRole('link', { name: t('staff.header.reports') })).toBeVisible();
  await expect(nav.getByRole('link', { name: t('staff.header.faq') })).toBeVisible();
  expect(await menuTools(page, DEMO_REFERRER)).toEqual([]);
  await expectNoSeriousA11yViolations(page, '/about (referrer signed in)');
  await page.keyboard.press('Escape');
  await nav.getByRole('link', { name: t('staff.header.reports') }).click();
  await expect(page).toHaveURL(/\/referrer-access/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/staff');
  const list = page.getByRole('list', { name: t('staff.home.toolsLabel') });
  await expect(list.getByRole('link')).toHaveText([name('referrerReports'), name('referrerFaq')]);
  for (const tool of [
    'bookForPatient',
    'callbacks',
    'appointments',
    'bookingRequests',
    'screeningReviews',
    'emailPreview',
    'referrerFeedback',
    'kiosks',
    'adminPanel',
  ]) {
    await expect(page.getByRole('link', { name: name(tool) })).toHaveCount(0);
  }
});
