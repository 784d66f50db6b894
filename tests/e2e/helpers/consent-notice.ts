import { expect, type FrameLocator, type Page } from '@playwright/test';
import { t } from './i18n';

/**
 * The demo provider asks patients to sign consent forms (consentNotifyPatient): on the appointment
 * page a notice opens once the forms load. "Later" closes it, as a patient who came for something
 * else does.
 */
export async function dismissConsentNotice(surface: Page | FrameLocator): Promise<void> {
  const notice = surface.getByRole('dialog', { name: t('appointment.consent.notificationTitle') });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: t('appointment.consent.later') }).click();
  await expect(notice).toHaveCount(0);
}
