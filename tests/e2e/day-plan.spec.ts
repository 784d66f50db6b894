import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { bookFresh, PHONE_AND_DESKTOP } from './helpers/booking';
import { dismissConsentNotice } from './helpers/consent-notice';
import { t } from './helpers/i18n';
import { signIn } from './helpers/sign-in';

/**
 * The day planned before arrival (docs/rules/day-plan.md) on the appointment page, against the
 * real server and the demo provider: a pelvic ultrasound booked through the booking API drinks
 * 1 litre of water from 60 to 30 minutes before and arrives 15 minutes before (the clinic's
 * lead); the page shows those clock times in the clinic's zone, the missing referral, the map
 * link and parking, on a phone and a desktop screen, with axe and no sideways scroll.
 */

const MINUTE = 60_000;

async function clinicTimeZone(request: APIRequestContext, exam: string, clinic: string): Promise<string> {
  const response = await request.get(`/api/booking/clinics?exams=${exam}`);
  const body = (await response.json()) as { clinics: { clinic: { slug: string; timeZone: string } }[] };
  const zone = body.clinics.find((entry) => entry.clinic.slug === clinic)?.clinic.timeZone;
  expect(zone, `the time zone of ${clinic}`).toBeDefined();
  return zone ?? '';
}

/** "10:45 am": the clock time in the zone, compared without regard to the am/pm case or the space before it. */
function clockTime(instant: number, timeZone: string): string {
  return normalised(new Intl.DateTimeFormat('en-AU', { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(instant)));
}

const normalised = (text: string): string => text.replace(/[\s\u202f]+/g, ' ').toLowerCase();

async function stepTexts(page: Page): Promise<string[]> {
  const texts = await page.getByTestId('day-plan-step').allTextContents();
  return texts.map(normalised);
}

for (const screen of PHONE_AND_DESKTOP) {
  test(`a patient sees the timed plan of the day on the appointment page (${screen.name})`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport: screen.viewport, isMobile: screen.isMobile, hasTouch: screen.hasTouch });
    const page = await context.newPage();
    const patient = { dateOfBirth: '1986-05-17', email: `day.plan.${screen.name}@example.com` };
    const booking = await bookFresh(page.request, patient, 'us-pelvis');
    const zone = await clinicTimeZone(page.request, booking.exam, booking.clinic);
    const start = Date.parse(booking.startsAt);

    await page.goto(`/appointments/${booking.key}`);
    await signIn(page, patient);
    await dismissConsentNotice(page);
    const section = page.getByRole('region', { name: t('appointment.dayPlan.title') });
    await expect(section).toBeVisible();
    await expect(page.getByTestId('day-plan-step')).toHaveCount(3);

    // Drink from 60 to 30 minutes before, arrive 15 minutes before (the seeded exam and clinic), then the scan.
    const drink = t('appointment.dayPlan.steps.DRINK', { amount: '1 litre of water' });
    const finishBy = t('appointment.dayPlan.finishBy', { time: clockTime(start - 30 * MINUTE, zone) });
    expect(await stepTexts(page)).toEqual([
      normalised(`${clockTime(start - 60 * MINUTE, zone)}${drink}${finishBy}`),
      expect.stringMatching(new RegExp(`^${clockTime(start - 15 * MINUTE, zone)}arrive at `)),
      normalised(`${clockTime(start, zone)}${t('appointment.dayPlan.steps.EXAM', { exam: 'Ultrasound pelvis' })}`),
    ]);
    await expect(section.getByText(t('appointment.dayPlan.missing.referral'))).toBeVisible();
    await expect(section.getByRole('link', { name: /in maps \(opens in a new tab\)$/ })).toHaveAttribute(
      'href',
      /^https:\/\/www\.openstreetmap\.org\/search\?query=/,
    );
    await expect(section.getByText(t('appointment.dayPlan.parking'), { exact: false })).toBeVisible();

    await expectNoSeriousA11yViolations(page, `/appointments (your day, ${screen.name})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'no sideways scroll').toBeLessThanOrEqual(
      0,
    );
    // For a person to look at (test-results/e2e-artifacts): the section alone, and the screen it starts.
    await section.screenshot({ path: testInfo.outputPath(`day-plan-section-${screen.name}.png`) });
    await section.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: testInfo.outputPath(`day-plan-screen-${screen.name}.png`) });
    await context.close();
  });
}
