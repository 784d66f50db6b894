import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { fillPatientDetails, NEAR_PARRAMATTA, PHONE_AND_DESKTOP, startMriKneeBooking, takeFirstTimeAndContinue } from './helpers/booking';
import { t } from './helpers/i18n';
import { MINIMAL_PDF } from './helpers/files';

/**
 * The confirmation's own address (docs/rules/booking.md#confirmation), as a patient meets it on a
 * phone and on a desktop: book an MRI through the page (its safety screening answered online),
 * land on /appointments/{key}/confirmed, reload and still see it, Back and Forward keep it, the
 * .ics downloads with the right start and the clinic's address, the Google link has the right
 * dates, the referral sent from the details step is listed by name, and the preparation neither
 * asks for the screening again nor says anything twice.
 */

/** A patient of their own on each screen, so that the two bookings never meet. */
const DATE_OF_BIRTH = { phone: '1981-04-09', desktop: '1982-05-10' } as const;

/** Unfolds an .ics (RFC 5545 3.1) and answers the first value of a property, TEXT unescaped. */
function icsValue(ics: string, name: string): string {
  const line = ics
    .replace(/\r\n /g, '')
    .split('\r\n')
    .find((candidate) => candidate.startsWith(`${name}:`));
  return (line ?? '')
    .slice(name.length + 1)
    .replace(/\\([\\;,nN])/g, (_match, character: string) => (/n/i.test(character) ? '\n' : character));
}

const compactUtc = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

async function bookMriKnee(page: Page, size: (typeof PHONE_AND_DESKTOP)[number]): Promise<void> {
  // The MRI safety screening, online, before the clinic and time.
  await startMriKneeBooking(page);
  await takeFirstTimeAndContinue(page);
  await fillPatientDetails(page, {
    title: 'Ms',
    firstName: 'Nora',
    lastName: `Confirmed ${size.name}`,
    dateOfBirth: DATE_OF_BIRTH[size.name],
    email: `nora.${size.name}@example.com`,
    contactNumber: '0491570157',
    postalCode: '2150',
    medicareNumber: '2123456701',
  });
  // The referral, sent with the booking from the details step.
  const documents = page.getByRole('region', { name: t('attachments.title') });
  const chooser = page.waitForEvent('filechooser');
  await documents.getByRole('button', { name: t('attachments.chooseLabel', { title: 'Referral' }) }).click();
  await (await chooser).setFiles({ name: 'knee-referral.pdf', mimeType: 'application/pdf', buffer: MINIMAL_PDF });
  await expect(documents.getByText(t('attachments.notice.uploaded', { fileName: 'knee-referral.pdf' }))).toBeVisible();
  await page.getByRole('button', { name: t('booking.details.submit') }).click();
}

for (const size of PHONE_AND_DESKTOP) {
  test.describe(`on a ${size.name} (${size.viewport.width} x ${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch, ...NEAR_PARRAMATTA });

    test('the confirmation has its own address, survives a reload and history, and adds to a calendar', async ({ page }) => {
      // A whole booking with a document upload, then a reload, history and downloads: more than a minute on a busy machine.
      test.slow();
      await bookMriKnee(page, size);

      const heading = page.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') });
      await expect(heading).toBeVisible({ timeout: 15_000 });
      await expect(page).toHaveURL(/\/appointments\/[A-Za-z0-9_-]{16,}\/confirmed$/);
      const address = new URL(page.url()).pathname;
      const bookingKey = address.split('/')[2] ?? '';
      const time = page.getByTestId('confirmed-time');
      const startsAt = (await time.getAttribute('datetime')) ?? '';
      const shownTime = await time.textContent();
      expect(startsAt).not.toBe('');

      // The referral sent while booking is listed by its name.
      await expect(page.getByTestId('sent-documents')).toContainText('Referral: knee-referral.pdf');

      // The preparation knows the screening was done online, and says each thing once.
      const preparation = page.getByTestId('preparation');
      await expect(preparation).toContainText('You have completed the MRI safety questions online');
      await expect(preparation).not.toContainText('Before you book');
      await expect(preparation).not.toContainText('MRI safety form');
      await expect(page.getByText(/Remove all metal/)).toHaveCount(1);
      await expectNoSeriousA11yViolations(page, `confirmation (${size.name})`);

      // A reload keeps it: the browser that booked reads it back.
      await page.reload();
      await expect(heading).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId('confirmed-time')).toHaveText(shownTime ?? '');

      // Back goes to the booking home (starting afresh), Forward returns to the confirmation.
      await page.goBack();
      await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
      expect(new URL(page.url()).search).toBe('');
      await page.goForward();
      await expect(heading).toBeVisible({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe(address);

      // The .ics: the start in UTC, the clinic's address, the preparation.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('calendar-ics').click()]);
      expect(download.suggestedFilename()).toMatch(/^appointment-\d{4}-\d{2}-\d{2}\.ics$/);
      const ics = await readFile((await download.path()) ?? '', 'utf8');
      expect(icsValue(ics, 'DTSTART')).toBe(compactUtc(startsAt));
      const clinicRow = page.locator('.pp-confirmed-details > div', {
        has: page.getByText(t('appointment.summary.clinic'), { exact: true }),
      });
      const clinicAddress = (await clinicRow.locator('dd').innerText()).split('\n');
      expect(icsValue(ics, 'LOCATION')).toContain(clinicAddress[0] ?? 'missing');
      expect(icsValue(ics, 'LOCATION')).toContain(clinicAddress[1] ?? 'missing');
      expect(icsValue(ics, 'DESCRIPTION')).toContain('You have completed the MRI safety questions online');

      // Google Calendar: the same start, the end after it, the clinic.
      const google = new URL((await page.getByTestId('calendar-google').getAttribute('href')) ?? '');
      expect(google.origin).toBe('https://calendar.google.com');
      const [start, end] = (google.searchParams.get('dates') ?? '').split('/');
      expect(start).toBe(compactUtc(startsAt));
      expect(end).toBe(icsValue(ics, 'DTEND'));
      expect(google.searchParams.get('location')).toBe(icsValue(ics, 'LOCATION'));
      const outlook = new URL((await page.getByTestId('calendar-outlook').getAttribute('href')) ?? '');
      expect(outlook.searchParams.get('startdt')).toBe(new Date(startsAt).toISOString().replace(/\.\d{3}Z$/, 'Z'));

      // Another browser (no receipt) is asked to sign in, and sees nothing of the booking before.
      const stranger = await page.context().browser()?.newContext();
      if (stranger) {
        const response = await stranger.request.get(`${new URL(page.url()).origin}/api/appointments/${bookingKey}/confirmation`);
        expect(response.status()).toBe(401);
        expect(await response.text()).not.toContain('Nora');
        await stranger.close();
      }
    });
  });
}
