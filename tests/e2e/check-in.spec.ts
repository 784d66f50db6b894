import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { referralPhoto } from './helpers/files';
import { dismissConsentNotice } from './helpers/consent-notice';
import { t } from './helpers/i18n';
import { signIn } from './helpers/sign-in';

/**
 * Digital check-in on a phone (docs/rules/check-in.md#digital-check-in): the demo provider's check-in appointment starts an hour
 * after the server seeded it, so its window (120 minutes before the start) is open. The patient is
 * sent to upload the missing referral and comes back, fills in the form with the doctor search,
 * and the real server hands it to the demo RIS receiver (signed webhook, accepted after a delay)
 * until the appointment is checked in. axe on every step and dialog.
 */

test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

const OLIVIA = { bookingKey: 'RXizpOy124eIE3xqxwcjKA', dateOfBirth: '1983-06-30', email: 'olivia.arrival@example.com' };
const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };

async function openAppointment(page: Page, patient: { bookingKey: string; dateOfBirth: string; email: string }) {
  await page.goto(`/appointments/${patient.bookingKey}`);
  await signIn(page, patient);
  await expect(page.getByRole('heading', { level: 1, name: t('appointment.title') })).toBeVisible();
  await dismissConsentNotice(page);
  return page.getByRole('region', { name: t('checkIn.title') });
}

test('a patient checks in on a phone: the missing referral first, then the form, handed to the clinic until checked in', async ({
  page,
}) => {
  const checkIn = await openAppointment(page, OLIVIA);
  await expect(checkIn.getByText(t('checkIn.referralMissing'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'check-in: referral missing');

  // Sent to the documents, and back once the referral is there.
  await checkIn.getByRole('link', { name: t('checkIn.uploadReferral') }).click();
  await expect(page).toHaveURL(/[?&]upload=1/);
  const documents = page.getByRole('region', { name: t('attachments.title') });
  const chooser = page.waitForEvent('filechooser');
  await documents.getByRole('button', { name: t('attachments.chooseLabel', { title: 'Referral' }) }).click();
  await (await chooser).setFiles({ name: 'referral.jpg', mimeType: 'image/jpeg', buffer: await referralPhoto() });
  await expect(documents.getByText(t('attachments.notice.uploaded', { fileName: 'referral.jpg' }))).toBeVisible();
  await expect(page).not.toHaveURL(/upload=/);

  const search = checkIn.getByLabel(t('checkIn.doctor'));
  await expect(search).toBeVisible();
  await search.scrollIntoViewIfNeeded();
  await search.fill('Okafor');
  const doctor = checkIn.getByRole('button', { name: /Dr Daniel Okafor, Westmead Orthopaedic Rooms/ });
  await expect(doctor).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'check-in: doctor search');
  await doctor.tap();
  await expect(checkIn.getByTestId('chosen-doctor')).toContainText('Dr Daniel Okafor');

  const submit = checkIn.getByRole('button', { name: t('checkIn.submit') });
  await checkIn.getByLabel(t('checkIn.dateOfReferral')).fill('2026-01-05');
  await checkIn.getByLabel(t('checkIn.medicareNumber')).fill('2123 45671 1');
  await checkIn.getByLabel(t('checkIn.referenceNumber')).focus();
  await expect(checkIn.getByText(t('checkIn.errors.medicareNumber'))).toBeVisible();
  await expect(submit).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'check-in: a wrong Medicare number');
  await checkIn.getByLabel(t('checkIn.medicareNumber')).fill('2123 45670 1');
  await checkIn.getByLabel(t('checkIn.referenceNumber')).fill('1');
  await expect(submit).toBeEnabled();
  await submit.tap();

  const processing = page.getByRole('alertdialog', { name: t('checkIn.processingTitle') });
  await expect(processing).toBeVisible();
  await expect(processing.getByRole('button')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'check-in: processing dialog');
  const confirmed = page.getByRole('dialog', { name: t('checkIn.confirmedTitle') });
  await expect(confirmed).toBeVisible({ timeout: 30_000 });
  await expectNoSeriousA11yViolations(page, 'check-in: confirmed dialog');
  await confirmed.getByRole('button', { name: t('checkIn.ok') }).click();
  await expect(checkIn.getByText(t('checkIn.done'))).toBeVisible();
  await expect(page.getByTestId('appointment-status')).toHaveText(t('appointment.status.CHECKED_IN'));
  // What is still to do before the scan: the demo exam's preparation notes.
  const checklist = checkIn.getByRole('region', { name: t('checkIn.checklist.title') });
  await expect(checklist.getByRole('listitem').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'check-in: checklist');
});

test('a patient a week early is told when check-in opens', async ({ page }) => {
  const checkIn = await openAppointment(page, LIAM);
  await expect(checkIn.getByText(/Online check-in opens 120 minutes before your appointment, at /)).toBeVisible();
  await expect(checkIn.getByRole('button', { name: t('checkIn.submit') })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'check-in: before the window');
});
