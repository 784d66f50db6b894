import type { Server } from 'node:http';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers/axe';
import { t } from './helpers/i18n';
import { waitForMailTo } from './helpers/mail';
import { answerQuestionnairesPlainly } from './helpers/questionnaires';
import { referralPhoto } from './helpers/files';
import { EMBED_PARENT_PORT, startParentSite } from './helpers/servers';
import { signIn } from './helpers/sign-in';
import { screenedKey } from './helpers/booking';

/**
 * The booking journey in Chromium against the real server and its seeded demo
 * provider: exams, clinic and time, details, confirmation; inside the provider's frame and on a
 * phone-sized screen; field problems before submitting; axe on every step.
 */

type Scope = Page | FrameLocator;

const PATIENT = {
  title: 'Ms',
  firstName: 'Amelia',
  lastName: 'Journey',
  dateOfBirth: '1968-11-02',
  email: 'amelia.journey@example.com',
  contactNumber: '0491570156',
  postalCode: '2150',
  // A valid Medicare check digit (weights 1,3,7,9,... over the first 8 digits).
  medicareNumber: '2123456701',
};

async function chooseExams(scope: Scope, names: string[]) {
  await expect(scope.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
  for (const name of names) {
    await scope.getByRole('searchbox', { name: t('booking.exams.search') }).fill(name);
    await scope.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) }).check();
  }
}

/** Continue from the exams: the chosen exams' questionnaires are answered plainly first. */
async function continueFromExams(scope: Scope) {
  await scope.getByRole('button', { name: t('action.continue') }).click();
  await answerQuestionnairesPlainly(scope, scope.getByRole('heading', { level: 2, name: t('booking.location.title') }));
}

/** Chooses the first listed clinic and its first free time; waits for the hold. */
async function chooseClinicAndTime(scope: Scope) {
  await expect(scope.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
  const choose = scope.getByRole('button', { name: /^Choose / }).first();
  await choose.click();
  const firstTime = scope.locator('.pp-slot').first();
  await expect(firstTime).toBeVisible({ timeout: 15_000 });
  await firstTime.click();
  await expect(scope.getByText(/is held for you until/)).toBeVisible();
}

async function fillDetails(scope: Scope, withMedicare: boolean, email = PATIENT.email) {
  await scope.getByRole('combobox', { name: t('booking.details.fields.title') }).selectOption(PATIENT.title);
  await scope.getByRole('textbox', { name: t('booking.details.fields.firstName') }).fill(PATIENT.firstName);
  await scope.getByRole('textbox', { name: t('booking.details.fields.lastName') }).fill(PATIENT.lastName);
  await scope.getByLabel(t('booking.details.fields.dateOfBirth')).fill(PATIENT.dateOfBirth);
  await scope.getByRole('textbox', { name: t('booking.details.fields.email') }).fill(email);
  await scope.getByRole('textbox', { name: t('booking.details.fields.contactNumber') }).fill(PATIENT.contactNumber);
  await scope.getByRole('textbox', { name: t('booking.details.fields.postalCode') }).fill(PATIENT.postalCode);
  if (withMedicare) await scope.getByRole('textbox', { name: t('booking.details.fields.medicareNumber') }).fill(PATIENT.medicareNumber);
}

/** Checks the confirmation (its own address, /appointments/{key}/confirmed) and returns the appointment page's path. */
async function expectConfirmation(scope: Scope): Promise<string> {
  await expect(scope.getByRole('heading', { level: 1, name: t('appointment.confirmed.title') })).toBeVisible({ timeout: 15_000 });
  const link = scope.getByRole('link', { name: t('appointment.confirmed.manage') });
  await expect(link).toHaveAttribute('href', /^(\/iframe)?\/appointments\/[A-Za-z0-9_-]{16,}$/);
  return ((await link.getAttribute('href')) ?? '').replace(/^\/iframe/, '');
}

test.describe('on a desktop with the browser sharing its position', () => {
  test.use({ geolocation: { latitude: -33.8156, longitude: 151.0029 }, permissions: ['geolocation'] });

  test('a patient books an MRI and a CT (the CT as the walk-in), nearest clinic first, sees the confirmation and gets the mail', async ({
    page,
  }) => {
    await page.goto('/');
    await chooseExams(page, ['MRI knee', 'CT brain']);
    // Two modalities cannot share one time: the walk-in dialog records the CT as the walk-in.
    const walkIn = page.getByRole('dialog', { name: t('booking.walkIn.title') });
    await expect(walkIn).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking step 0 with the walk-in dialog');
    await walkIn
      .getByRole('button', { name: t('booking.walkIn.option', { name: 'CT brain without contrast (walk-in)', count: 20 }) })
      .click();
    await expect(page.getByText(t('booking.walkIn.recorded', { name: 'CT brain without contrast (walk-in)' }))).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'booking step 0');
    await continueFromExams(page);

    // Browser position near Parramatta: Parramatta is listed first.
    await expect(page.getByText(t('booking.location.fromBrowser'))).toBeVisible();
    await expect(page.locator('.pp-clinic-card h4').first()).toContainText('Parramatta');
    await expect(page.getByRole('group', { name: t('booking.map.label') })).toBeVisible();
    await chooseClinicAndTime(page);
    await expectNoSeriousA11yViolations(page, 'booking step 1');
    await page.getByRole('button', { name: t('action.continue') }).click();

    await expect(page.getByRole('heading', { level: 2, name: t('booking.details.title') })).toBeVisible();
    const email = 'amelia.walk-in@example.com';
    await fillDetails(page, true, email);
    await expectNoSeriousA11yViolations(page, 'booking step 2');
    await page.getByRole('button', { name: t('booking.details.submit') }).click();

    const appointmentPath = await expectConfirmation(page);
    await expect(page.locator('.pp-confirmed-details')).toContainText('MRI knee');
    await expect(page.locator('.pp-confirmed-details')).toContainText(
      t('appointment.summary.walkInText', { name: 'CT brain without contrast (walk-in)', count: 20 }),
    );
    await expectNoSeriousA11yViolations(page, 'booking step 3');

    // The confirmation mail arrives over SMTP with the details, the appointment link and an .ics file.
    const mail = await waitForMailTo(email);
    expect(mail.text ?? '').toContain('MRI knee');
    expect(mail.text ?? '').toContain('CT brain without contrast (walk-in)');
    expect(mail.text ?? '').toContain(appointmentPath);
    expect(
      mail.attachments.some(
        (attachment) => attachment.contentType.startsWith('text/calendar') || (attachment.filename ?? '').endsWith('.ics'),
      ),
    ).toBe(true);
  });
});

test.describe('inside the provider site frame', () => {
  let parent: Server | undefined;
  test.afterEach(async () => {
    await new Promise((resolve) => (parent ? parent.close(resolve) : resolve(undefined)));
    parent = undefined;
  });

  test('the same journey works in /iframe/advanced-booking, locating by postcode', async ({ page }) => {
    parent = await startParentSite(EMBED_PARENT_PORT, '127.0.0.1', '/iframe/advanced-booking');
    await page.goto(`http://127.0.0.1:${EMBED_PARENT_PORT}/`);
    const frame = page.frameLocator('iframe[title="Patient portal"]');
    await chooseExams(frame, ['CT chest']);
    await continueFromExams(frame);

    // Nothing is asked unprompted; in the frame the browser may not share the position, so
    // "Use my location" fails and the unable-to-locate window offers a postcode.
    await frame.getByRole('button', { name: t('booking.location.useMyLocation') }).click();
    const unable = frame.getByRole('dialog', { name: t('booking.location.unableTitle') });
    await expect(unable).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'framed booking: unable to locate');
    await unable.getByRole('button', { name: t('booking.location.usePostcode') }).click();
    const locator = frame.getByRole('dialog', { name: t('booking.location.postcodeTitle') });
    await expectNoSeriousA11yViolations(page, 'framed booking: postcode locator');
    await locator.getByRole('textbox', { name: t('booking.location.postcode') }).fill('2150');
    await locator.getByRole('button', { name: t('booking.location.find') }).click();
    await expect(frame.getByText(t('booking.location.fromPostcode'))).toBeVisible();
    await chooseClinicAndTime(frame);
    await expectNoSeriousA11yViolations(page, 'framed booking step 1');
    await frame.getByRole('button', { name: t('action.continue') }).click();

    await fillDetails(frame, false);
    await frame.getByRole('button', { name: t('booking.details.submit') }).click();
    await expectConfirmation(frame);
    await expectNoSeriousA11yViolations(page, 'framed booking step 3');
  });
});

test.describe('on a phone (375 x 667)', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('the journey fits the small screen, with the month view', async ({ page }) => {
    await page.goto('/');
    await chooseExams(page, ['X-ray chest']);
    await expectNoSeriousA11yViolations(page, 'phone booking step 0');
    await page.getByRole('button', { name: t('booking.exams.aboutExam', { name: 'X-ray chest' }) }).click();
    const info = page.getByRole('dialog', { name: 'X-ray chest' });
    await expect(info.getByRole('heading', { name: t('booking.exams.preparation') })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'phone exam information');
    await info.getByRole('button', { name: t('action.close') }).click();
    await continueFromExams(page);
    await page
      .getByRole('button', { name: /^Choose / })
      .first()
      .click();
    await page.getByRole('button', { name: t('booking.calendar.month') }).click();
    const day = page.locator('.pp-month-day:not([disabled])').first();
    await expect(day).toBeVisible({ timeout: 15_000 });
    await day.click();
    const time = page.locator('.pp-slot').first();
    await expect(time).toBeVisible();
    await time.click();
    await expect(page.getByText(/is held for you until/)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'phone booking step 1 (month)');
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: t('action.continue') }).click();
    await fillDetails(page, false);

    // The X-ray asks for a referral: a photo of it goes with the booking (kept under its temporary key).
    const documents = page.getByRole('region', { name: t('attachments.title') });
    await expect(documents.getByRole('heading', { level: 3, name: 'Referral' })).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await documents.getByRole('button', { name: t('attachments.chooseLabel', { title: 'Referral' }) }).click();
    await (await chooser).setFiles({ name: 'referral-photo.jpg', mimeType: 'image/jpeg', buffer: await referralPhoto() });
    await expect(documents.getByText(t('attachments.requested.uploaded', { fileName: 'referral-photo.jpg' }))).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'phone booking details with a document');

    await page.getByRole('button', { name: t('booking.details.submit') }).click();
    const appointmentPath = await expectConfirmation(page);
    // The confirmation at its own address does not list the documents yet; the appointment does.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The appointment has it.
    await page.goto(appointmentPath);
    await signIn(page, PATIENT);
    const onAppointment = page.getByRole('region', { name: t('attachments.title') });
    await expect(onAppointment.getByText(t('attachments.requested.uploaded', { fileName: 'referral-photo.jpg' }))).toBeVisible();
  });
});

test('a wrong contact number and a future date of birth are shown next to their fields before submitting', async ({ page }) => {
  await page.goto('/?lat=-33.8156&lng=151.0029');
  await chooseExams(page, ['X-ray knee']);
  await continueFromExams(page);
  await expect(page.getByText(t('booking.location.fromLink'))).toBeVisible();
  await chooseClinicAndTime(page);
  await page.getByRole('button', { name: t('action.continue') }).click();

  const contact = page.getByRole('textbox', { name: t('booking.details.fields.contactNumber') });
  await contact.fill('04915701561234');
  await contact.blur();
  await expect(page.getByText(t('booking.details.problems.contactNumber'))).toBeVisible();
  await expect(contact).toHaveAttribute('aria-invalid', 'true');
  const dateOfBirth = page.getByLabel(t('booking.details.fields.dateOfBirth'));
  await dateOfBirth.fill('2999-01-01');
  await dateOfBirth.blur();
  await expect(page.getByText(t('booking.details.problems.dateOfBirthFuture'))).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'booking step 2 with field problems');

  // Submitting with problems sends nothing and moves focus to the first wrong field.
  let posted = false;
  page.on('request', (request) => {
    if (request.url().includes('/api/booking/appointments')) posted = true;
  });
  await page.getByRole('button', { name: t('booking.details.submit') }).click();
  await expect(page.getByRole('combobox', { name: t('booking.details.fields.title') })).toBeFocused();
  expect(posted).toBe(false);
});

test('an enquiry-only exam becomes a booking request', async ({ page }) => {
  await page.goto('/?lat=-33.8156&lng=151.0029');
  await chooseExams(page, ['CT coronary angiogram']);
  const info = page.getByRole('dialog', { name: t('booking.requestInfo.title') });
  await expect(info).toBeVisible();
  await info.getByRole('button', { name: t('booking.requestInfo.ok') }).click();
  await expect(page.getByText(t('booking.exams.requestNotice'))).toBeVisible();
  await continueFromExams(page);
  await expect(page.getByRole('heading', { level: 3, name: t('booking.location.clinicsOptional') })).toBeVisible();
  await page.getByRole('button', { name: t('action.continue') }).click();
  await fillDetails(page, false);
  await page.getByRole('textbox', { name: t('booking.details.fields.notes') }).fill('Please call after 3 pm.');
  await page.getByRole('button', { name: t('booking.details.submitRequest') }).click();
  await expect(page.getByText(t('booking.confirmation.request'))).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('link', { name: t('booking.confirmation.viewRequest') })).toHaveAttribute('href', /^\/booking-requests\//);
  await expectNoSeriousA11yViolations(page, 'booking request confirmation');
});

test('a time taken by someone else meanwhile shows the clear message and fresh times', async ({ page, request }) => {
  let holdId = '';
  page.on('response', async (response) => {
    if (response.url().endsWith('/api/booking/holds') && response.status() === 201) holdId = (await response.json()).holdId;
  });
  await page.goto('/?lat=-33.8156&lng=151.0029');
  await chooseExams(page, ['X-ray hand and wrist']);
  await continueFromExams(page);
  await chooseClinicAndTime(page);
  await expect.poll(() => holdId).not.toBe('');
  const query = new URL(page.url()).searchParams;
  const startsAt = query.get('time') ?? '';
  const clinicSlug = query.get('clinic') ?? '';
  await page.getByRole('button', { name: t('action.continue') }).click();
  await fillDetails(page, false);

  // Other patients get the same time: our hold is released and they book it in every room that
  // has it free (the clinic has two X-ray rooms), until the next one is told it is taken. Each
  // books from an address and with a contact of their own, as different people would.
  expect((await request.delete(`/api/booking/holds/${holdId}`)).status()).toBeLessThan(300);
  const statuses: number[] = [];
  for (let other = 1; other <= 4 && !statuses.includes(409); other += 1) {
    const from = { 'X-Forwarded-For': `198.51.100.${other}` };
    const answer = await request.post('/api/booking/appointments', {
      headers: { 'Idempotency-Key': crypto.randomUUID(), ...from },
      data: {
        questionnaireKey: await screenedKey(request, ['xr-hand-wrist'], from),
        exams: ['xr-hand-wrist'],
        clinicSlug,
        startsAt,
        patient: {
          ...PATIENT,
          firstName: 'Other',
          email: `other.patient.${other}@example.com`,
          contactNumber: `049157020${other}`,
          medicareNumber: undefined,
        },
      },
    });
    statuses.push(answer.status());
  }
  // At least one other patient booked it, then the time was full.
  expect(statuses[0]).toBe(201);
  expect(statuses.at(-1)).toBe(409);
  expect(statuses.slice(0, -1).every((status) => status === 201)).toBe(true);

  await page.getByRole('button', { name: t('booking.details.submit') }).click();
  await expect(page.getByRole('alert').filter({ hasText: t('booking.calendar.slotTaken') })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
  await expect(page.locator('.pp-slot').first()).toBeVisible();
  await expect(page.locator(`.pp-slot[aria-pressed="true"]`)).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'booking step 1 after a taken time');
});

test('a server failure shows its own text; closing the error reloads the times without the date and time in the URL', async ({ page }) => {
  // The gateway in front of the portal answers 502 once (simulated in the browser's network layer).
  let failed = false;
  await page.route('**/api/booking/appointments', async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' });
  });
  await page.goto('/?lat=-33.8156&lng=151.0029');
  await chooseExams(page, ['Ultrasound abdomen']);
  await continueFromExams(page);
  await chooseClinicAndTime(page);
  await expect.poll(() => new URL(page.url()).searchParams.get('time')).not.toBeNull();
  await page.getByRole('button', { name: t('action.continue') }).click();
  await fillDetails(page, false);
  await page.getByRole('button', { name: t('booking.details.submit') }).click();

  const dialog = page.getByRole('alertdialog', { name: t('booking.errors.title') });
  await expect(dialog).toContainText(t('booking.errors.502'));
  await expectNoSeriousA11yViolations(page, 'booking error modal');
  const timesBefore = page.waitForResponse((response) => response.url().includes('/api/booking/availability'));
  await dialog.getByRole('button', { name: t('action.close') }).click();
  await timesBefore;
  await expect(page.getByRole('heading', { level: 2, name: t('booking.location.title') })).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('time')).toBeNull();
  expect(new URL(page.url()).searchParams.get('date')).toBeNull();
  await expect(page.locator('.pp-slot[aria-pressed="true"]')).toHaveCount(0);
});
