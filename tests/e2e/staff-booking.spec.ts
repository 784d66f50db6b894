import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { takeFirstTimeAndContinue } from './helpers/booking';
import { t } from './helpers/i18n';
import { forgetMailsTo } from './helpers/sign-in';
import { waitForMailTo } from './helpers/mail';
import { surveyDialog, answerQuestionnairesPlainly } from './helpers/questionnaires';
import { DEMO_STAFF, expectStaffMenu, signInThroughPopup } from './helpers/staff';

/**
 * A booking team member books for a patient who booked before (docs/rules/booking.md#patient-lookup):
 * from the account menu to "Book for a patient", questionnaires answered for the patient (the
 * dialog says so), the patient found by last name and date of birth, their details put in the
 * form, and the confirmation mail written to the patient.
 */
test.use({
  ignoreHTTPSErrors: true,
  viewport: { width: 1440, height: 900 },
  geolocation: { latitude: -33.8156, longitude: 151.0029 },
  permissions: ['geolocation'],
});

/** A demo patient with earlier bookings (resources/demo-provider/appointments.json). */
const LIAM = { lastName: 'Example', dateOfBirth: '1991-03-14', email: 'liam.example@example.com', phone: '0491570006' };

test('staff find an existing patient, book for them, and the patient’s mail speaks to the patient', async ({ page }) => {
  await forgetMailsTo(LIAM.email);
  await page.goto('/about');
  await signInThroughPopup(page, () => page.getByRole('button', { name: t('nav.login') }).click(), DEMO_STAFF);
  await expectStaffMenu(page, DEMO_STAFF.username);
  await page.getByRole('button', { name: `Account: ${DEMO_STAFF.username}` }).click();
  await page.getByRole('link', { name: t('staff.tools.bookForPatient.name') }).click();
  await expect(page).toHaveURL(/\?staffBooking=true$/);

  // An MRI: its safety questionnaire opens, and tells the staff member they answer for the patient.
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill('MRI knee');
  await page.getByRole('checkbox', { name: /^MRI knee\b/ }).check();
  await page.getByRole('button', { name: t('action.continue') }).click();
  const survey = surveyDialog(page);
  await expect(survey).toBeVisible({ timeout: 15_000 });
  await expect(survey.getByText(t('questionnaire.forPatient'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'staff booking: questionnaire answered for the patient');
  await answerQuestionnairesPlainly(page, page.getByRole('heading', { level: 2, name: t('booking.location.title') }));

  await takeFirstTimeAndContinue(page);
  await expect(page.getByRole('heading', { level: 2, name: t('booking.details.title') })).toBeVisible();

  // The lookup: a bad date of birth is named at its field and nothing is searched; then Liam is found once.
  const lookup = page.getByRole('region', { name: t('booking.lookup.title') });
  await expect(lookup).toBeVisible();
  await lookup.getByRole('textbox', { name: t('booking.lookup.fields.lastName') }).fill('example');
  await lookup.getByRole('button', { name: t('booking.lookup.search') }).click();
  await expect(lookup.getByText(t('booking.lookup.problems.dateOfBirth'))).toBeVisible();
  await expect(lookup.getByLabel(t('booking.lookup.fields.dateOfBirth'), { exact: true })).toBeFocused();
  await lookup.getByLabel(t('booking.lookup.fields.dateOfBirth'), { exact: true }).fill(LIAM.dateOfBirth);
  await lookup.getByRole('button', { name: t('booking.lookup.search') }).click();
  const results = lookup.getByRole('list', { name: t('booking.lookup.resultsLabel') });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results).toContainText('Mr Liam Example');
  await expect(results).toContainText(/Last booking: MRI/);
  await expectNoSeriousA11yViolations(page, 'staff booking: patient found');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await results.getByRole('button', { name: t('booking.lookup.useFor', { name: 'Liam Example' }) }).click();
  const filled = lookup.getByText(t('booking.lookup.filled', { name: 'Liam Example' }));
  await expect(filled).toBeFocused();
  // The booking's own fields (ids from details-step.tsx), now holding Liam's details.
  const expected = {
    title: 'Mr',
    firstName: 'Liam',
    lastName: 'Example',
    dateOfBirth: LIAM.dateOfBirth,
    email: LIAM.email,
    contactNumber: LIAM.phone,
    postalCode: '2150',
  };
  for (const [field, value] of Object.entries(expected)) await expect(page.locator(`#booking-${field}`), field).toHaveValue(value);
  await expectNoSeriousA11yViolations(page, 'staff booking: details filled in');

  // Medicare numbers are not kept with past bookings: the staff member asks for the card.
  await page.locator('#booking-medicareNumber').fill('2123456701');
  await page.getByRole('button', { name: t('booking.details.submit') }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });

  // The confirmation goes to the patient, in words for the patient.
  const mail = await waitForMailTo(LIAM.email);
  const text = mail.text ?? '';
  expect(text).toContain('MRI knee');
  expect(text).toMatch(/booked it for you|booked for you/);
  expect(text).not.toMatch(/The patient's appointment|If the patient cannot attend/);
});
