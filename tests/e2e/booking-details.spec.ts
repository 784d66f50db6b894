import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { fillPatientDetails, NEAR_PARRAMATTA, takeFirstTimeAndContinue } from './helpers/booking';
import { t } from './helpers/i18n';
import { answerQuestionnairesPlainly } from './helpers/questionnaires';
import { DEMO_STAFF, expectStaffMenu, signInThroughPopup } from './helpers/staff';

/**
 * The booking form's details (docs/rules/booking.md#booking-form-details): on a
 * phone a patient books an ultrasound paid by a private health fund (fund and member number),
 * answers the ethnicity question and finds the referring practice in the directory; staff on a
 * desktop open the booking's confirmation and see the three answers.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
/** A practice of the demo directory (resources/demo-provider/referring-doctors.json). */
const PRACTICE = { name: 'Macquarie Street Family Practice', suburb: 'Parramatta' };

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** From the booking home: an abdominal ultrasound, its questionnaires, the first free time, on to the details. */
async function toDetailsStep(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill('ultrasound abdomen');
  await page.getByRole('checkbox', { name: /^Ultrasound abdomen\b/ }).check();
  await page.getByRole('button', { name: t('action.continue') }).click();
  await answerQuestionnairesPlainly(page, page.getByRole('heading', { level: 2, name: t('booking.location.title') }));
  await takeFirstTimeAndContinue(page);
}

test('a patient books with insurance, ethnicity and the referring practice, and staff see them', async ({ browser }) => {
  test.slow();
  const phone = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    ignoreHTTPSErrors: true,
    ...NEAR_PARRAMATTA,
  });
  const page = await phone.newPage();
  await toDetailsStep(page);
  await fillPatientDetails(page, {
    title: 'Ms',
    firstName: 'Mia',
    lastName: 'Details',
    dateOfBirth: '1979-08-21',
    email: 'mia.details@example.com',
    contactNumber: '0491570158',
    postalCode: '2150',
  });

  // Insurance: a private fund asks for the fund and the member number; without them the booking is not sent.
  const section = page.getByRole('region', { name: t('booking.formDetails.title') });
  // Every question is optional for the demo provider: they wait behind one button (one Tab stop).
  await section.getByRole('button', { name: t('booking.formDetails.open') }).click();
  const payment = section.getByRole('group', { name: new RegExp(t('booking.formDetails.insurance.legend').replace('?', '\\?')) });
  await payment.getByRole('radio', { name: 'Private health fund' }).check();
  await page.getByRole('button', { name: t('booking.details.submit') }).click();
  await expect(section.getByText(t('booking.formDetails.problems.fundNameRequired'))).toBeVisible();
  await expect(section.getByText(t('booking.formDetails.problems.memberNumberRequired'))).toBeVisible();
  await expect(section.getByRole('textbox', { name: t('booking.formDetails.insurance.fundName') })).toBeFocused();
  await section.getByRole('textbox', { name: t('booking.formDetails.insurance.fundName') }).fill('Bupa');
  await section.getByRole('textbox', { name: t('booking.formDetails.insurance.memberNumber') }).fill('9876 5432');

  // The ethnicity question, with "Prefer not to say" offered.
  const origin = section.getByRole('group', { name: new RegExp(t('booking.formDetails.ethnicity.legend').replace('?', '\\?')) });
  await expect(origin.getByRole('radio', { name: t('booking.formDetails.ethnicity.options.NOT_STATED') })).toBeVisible();
  await origin.getByRole('radio', { name: t('booking.formDetails.ethnicity.options.ABORIGINAL') }).check();

  // The referring practice, found in the directory by part of its name.
  await section.getByRole('searchbox', { name: new RegExp(t('booking.formDetails.practice.label')) }).fill('macquarie street');
  const found = section.getByRole('list', { name: t('booking.formDetails.practice.listLabel') });
  await expect(found).toBeVisible({ timeout: 10_000 });
  await found
    .getByRole('button', { name: new RegExp(PRACTICE.name) })
    .first()
    .click();
  await expect(section.getByText(t('booking.formDetails.practice.chosen', PRACTICE))).toBeVisible();
  await noSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'details step with the booking form details (phone)');
  await section.screenshot({ path: '/tmp/booking-details-phone.png' });

  await page.getByRole('button', { name: t('booking.details.submit') }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });
  const bookingKey = new URL(page.url()).pathname.split('/')[2] ?? '';
  expect(bookingKey).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  // The browser that booked reads its confirmation back without the answers (they are for staff and the signed-in patient).
  await expect(page.getByTestId('summary-ethnicity')).toHaveCount(0);
  await phone.close();

  // Staff, on a desktop, open the booking's confirmation and see the answers.
  const desk = await browser.newContext({ viewport: DESKTOP, ignoreHTTPSErrors: true });
  const staff = await desk.newPage();
  await staff.goto('/about');
  await signInThroughPopup(staff, () => staff.getByRole('button', { name: t('nav.login') }).click(), DEMO_STAFF);
  await expectStaffMenu(staff, DEMO_STAFF.username);
  await staff.goto(`/appointments/${bookingKey}/confirmed`);
  await expect(staff.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });
  await expect(staff.getByTestId('summary-insurance')).toContainText('Private health fund');
  await expect(staff.getByTestId('summary-insurance')).toContainText('Bupa');
  await expect(staff.getByTestId('summary-insurance')).toContainText('9876 5432');
  await expect(staff.getByTestId('summary-ethnicity')).toContainText(t('appointment.summary.ethnicityOptions.ABORIGINAL'));
  await expect(staff.getByTestId('summary-referring-practice')).toContainText(PRACTICE.name);
  await expect(staff.getByTestId('summary-referring-practice')).toContainText(PRACTICE.suburb);
  await noSidewaysScroll(staff);
  await expectNoSeriousA11yViolations(staff, 'staff confirmation with the booking form details (desktop)');
  await staff.screenshot({ path: '/tmp/booking-details-staff.png', fullPage: true });
  await desk.close();
});

test('the details step at 1440x900 shows the questions beside the flow', async ({ browser }) => {
  const desk = await browser.newContext({
    viewport: DESKTOP,
    ignoreHTTPSErrors: true,
    ...NEAR_PARRAMATTA,
  });
  const page = await desk.newPage();
  await toDetailsStep(page);
  const section = page.getByRole('region', { name: t('booking.formDetails.title') });
  await section.getByRole('button', { name: t('booking.formDetails.open') }).click();
  await expect(section.getByRole('group', { name: /paid for/ })).toBeFocused();
  // Medicare asks for the Medicare number under the choice; DVA for its file number.
  await section.getByRole('radio', { name: /Medicare/ }).check();
  await expect(section.getByRole('textbox', { name: t('booking.details.fields.medicareNumber') })).toBeVisible();
  await section.getByRole('radio', { name: /DVA/ }).check();
  await expect(section.getByRole('textbox', { name: t('booking.details.fields.medicareNumber') })).toHaveCount(0);
  await expect(section.getByRole('textbox', { name: t('booking.formDetails.insurance.dvaFileNumber') })).toBeVisible();
  await noSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page, 'details step with the booking form details (desktop)');
  await page.screenshot({ path: '/tmp/booking-details-desktop.png', fullPage: true });
  await desk.close();
});
