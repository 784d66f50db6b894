import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh } from './helpers/booking';
import { dismissConsentNotice } from './helpers/consent-notice';
import { t } from './helpers/i18n';
import { waitForMailTo } from './helpers/mail';
import { chooseBoolean, chooseRadio } from './helpers/questionnaires';
import { signIn } from './helpers/sign-in';

/**
 * Post-booking questionnaires reachable (docs/rules/questionnaires.md#due): the
 * confirmation mail of a new booking names "Before your visit" and the pain score before it, and
 * its link opens them on /q after the sign-in, one after the other; axe on /q.
 */

const PATIENT = { email: 'dana.due@example.com', dateOfBirth: '1984-07-19' };

// Bookings made through the API count against the booking limits of their address: these come from one of their own.
test.use({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.71' } });

test('the confirmation mail links the due questionnaires: its link opens them on /q after the sign-in, one after the other', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const booked = await bookFresh(request, PATIENT);
  const mail = await waitForMailTo(PATIENT.email);
  expect(mail.text).toContain('Before your visit');
  const link = /(http:\/\/\S+\/q\?bookingKey=\S+)/.exec(mail.text ?? '')?.[1] ?? '';
  expect(link).toContain(`bookingKey=${booked.key}`);
  expect(link).toContain('types=REQUIRED_ON_CONFIRMATION,PAIN_SCORE_INITIAL');

  await page.goto(link);
  await expect(page).toHaveURL(/\/authentication\?/);
  await signIn(page, PATIENT, page.getByRole('heading', { level: 1, name: t('questionnaire.title') }));
  const visit = page.getByRole('dialog', { name: 'Before your visit' });
  await expect(visit).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, '/q from the confirmation mail (390x844)');
  await chooseBoolean(visit, /interpreter/, 'No');
  await chooseRadio(visit, /examination table/, 'No help needed');
  await visit.getByRole('button', { name: 'Complete', exact: true }).click();
  // The next one due opens after it: the pain score before the procedure.
  await expect(page.getByRole('dialog', { name: 'Pain score before your procedure' })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('the appointment page lists the due questionnaires and its button opens them', async ({ page, request }) => {
  test.setTimeout(120_000);
  const patient = { email: 'eli.due@example.com', dateOfBirth: '1990-02-11' };
  await page.setViewportSize({ width: 1440, height: 900 });
  const booked = await bookFresh(request, patient);
  await page.goto(`/appointments/${booked.key}`);
  await signIn(page, patient, page.getByRole('heading', { level: 2, name: t('appointment.summary.title') }));
  await dismissConsentNotice(page);
  const due = page.getByRole('region', { name: t('appointment.questionnaires.title') });
  await expect(due).toBeVisible({ timeout: 20_000 });
  await expect(due.getByRole('listitem')).toHaveText(['Before your visit', 'Pain score before your procedure']);
  await expectNoSeriousA11yViolations(page, 'the appointment with questionnaires due (1440x900)');
  await due.getByRole('link', { name: t('appointment.questionnaires.answer') }).click();
  await expect(page).toHaveURL(/\/q\?bookingKey=/);
  await expect(page.getByRole('dialog', { name: 'Before your visit' })).toBeVisible({ timeout: 20_000 });
});
