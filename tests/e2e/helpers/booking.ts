import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { t } from './i18n';
import { answerQuestionnairesPlainly } from './questionnaires';

/** The browser placed at the Parramatta clinic, so that the clinic list is sorted from there without asking. */
export const NEAR_PARRAMATTA = { geolocation: { latitude: -33.8156, longitude: 151.0029 }, permissions: ['geolocation'] };

/** The two screens the booking journeys are checked on. */
export const PHONE_AND_DESKTOP = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false },
] as const;

/** The demo provider's screening answers that let a booking go ahead, by questionnaire slug. */
const PASSING_ANSWERS: Readonly<Record<string, object>> = {
  'mri-safety-screening': { pacemaker: 'no', hasImplants: false, metalInEyes: 'no', claustrophobia: false, weightKg: 82 },
  'ct-contrast': { previousReaction: 'no', kidneyDisease: 'no', onMetformin: false, allergies: ['none'] },
  'xray-pregnancy-check': { pregnant: 'no' },
  'mammogram-symptoms': { breastSymptoms: 'no' },
};

/**
 * A temporary questionnaire key with every questionnaire of these exams answered, as the booking
 * page leaves it: the server refuses a screened exam booked without one. `answers` (by
 * questionnaire slug) replace the passing ones.
 */
export async function screenedKey(
  request: APIRequestContext,
  exams: readonly string[],
  headers: Record<string, string> = {},
  answers: Readonly<Record<string, object>> = {},
): Promise<string> {
  const write = { ...headers, 'X-Requested-With': 'XMLHttpRequest' };
  const created = await request.post('/api/questionnaires/booking-keys', { headers: write });
  expect(created.status()).toBe(201);
  const { bookingKey } = (await created.json()) as { bookingKey: string };
  const list = await request.get(`/api/questionnaires?bookingKey=${bookingKey}&exams=${exams.join(',')}`, { headers });
  expect(list.status()).toBe(200);
  const { questionnaires } = (await list.json()) as {
    questionnaires: { questionnaire: { id: string; slug: string }; examSlug: string | null }[];
  };
  for (const item of questionnaires) {
    const result = answers[item.questionnaire.slug] ?? PASSING_ANSWERS[item.questionnaire.slug];
    expect(result, `answers for ${item.questionnaire.slug}`).toBeDefined();
    const saved = await request.post('/api/questionnaires/temporary-answers', {
      headers: write,
      data: {
        bookingKey,
        questionnaireId: item.questionnaire.id,
        ...(item.examSlug === null ? {} : { examSlug: item.examSlug }),
        questionnaireResult: result,
      },
    });
    expect(saved.status()).toBe(200);
  }
  return bookingKey;
}

/**
 * A client address of its own (198.18.0.0/15, the benchmarking range), sent as X-Forwarded-For,
 * which the e2e server trusts: the booking limits count per address, e-mail and phone number and
 * day (docs/rules/booking.md#booking-limits), and a whole run's API bookings from one of them
 * would pass the first threshold and be asked for a proof-of-work answer these helpers do not solve.
 */
function ownClientAddress(): Record<string, string> {
  const [high, low] = crypto.getRandomValues(new Uint8Array(2));
  return { 'X-Forwarded-For': `198.${18 + ((high ?? 0) & 1)}.${(high ?? 0) >> 1}.${Math.max(1, low ?? 1)}` };
}

/**
 * A new appointment booked through the real booking API, at least two days ahead (outside the
 * cancel limit); `answers` (by questionnaire slug) replace the passing screening answers.
 */
export async function bookFresh(
  request: APIRequestContext,
  patient: { email: string; dateOfBirth: string; medicareNumber?: string },
  exam = 'xr-chest',
  fromDays = 3,
  answers: Readonly<Record<string, object>> = {},
) {
  const clinics = await request.get(`/api/booking/clinics?exams=${exam}`);
  expect(clinics.status()).toBe(200);
  const clinic = ((await clinics.json()) as { clinics: { clinic: { slug: string } }[] }).clinics[0]?.clinic.slug ?? '';
  const from = new Date(Date.now() + fromDays * 86_400_000).toISOString().slice(0, 10);
  const free = await request.get(`/api/booking/availability?exams=${exam}&clinics=${clinic}&from=${from}&days=7`);
  const days = ((await free.json()) as { clinics: { days: { slots: { startsAt: string }[] }[] }[] }).clinics[0]?.days ?? [];
  const startsAt = days.flatMap((day) => day.slots.map((slot) => slot.startsAt))[0] ?? '';
  expect(startsAt).not.toBe('');
  const client = ownClientAddress();
  const booked = await request.post('/api/booking/appointments', {
    headers: { ...client, 'Idempotency-Key': crypto.randomUUID(), 'X-Requested-With': 'XMLHttpRequest' },
    data: {
      exams: [exam],
      clinicSlug: clinic,
      startsAt,
      questionnaireKey: await screenedKey(request, [exam], client, answers),
      patient: {
        title: 'Mr',
        firstName: 'Liam',
        lastName: 'Journey',
        dateOfBirth: patient.dateOfBirth,
        email: patient.email,
        // A number of its own too: the limits also count per phone number (10 a day before the check).
        contactNumber: `04${String(crypto.getRandomValues(new Uint32Array(1))[0] ?? 0)
          .padStart(10, '0')
          .slice(-8)}`,
        postalCode: '2150',
        ...(patient.medicareNumber === undefined ? {} : { medicareNumber: patient.medicareNumber }),
      },
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const { bookingKey: key, status } = (await booked.json()) as { bookingKey: string; status: string };
  return { key, exam, clinic, startsAt, status };
}

/** On the place-and-time step: the first listed clinic and its first free time, held; then on to the details. */
export async function takeFirstTimeAndContinue(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: /^Choose / })
    .first()
    .click();
  const firstTime = page.locator('.pp-slot').first();
  await expect(firstTime).toBeVisible({ timeout: 15_000 });
  await firstTime.click();
  await expect(page.getByText(/is held for you until/)).toBeVisible();
  await page.getByRole('button', { name: t('action.continue') }).click();
}

/** From the booking home: an MRI knee chosen and its safety screening answered plainly, up to the place-and-time step. */
export async function startMriKneeBooking(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: t('booking.title') })).toBeVisible();
  await page.getByRole('searchbox', { name: t('booking.exams.search') }).fill('MRI knee');
  await page.getByRole('checkbox', { name: /^MRI knee\b/ }).check();
  await page.getByRole('button', { name: t('action.continue') }).click();
  await answerQuestionnairesPlainly(page, page.getByRole('heading', { level: 2, name: t('booking.location.title') }));
}

export interface DetailsPatient {
  title: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
  contactNumber: string;
  postalCode: string;
  /** Filled only where the step asks for it (an exam that needs Medicare). */
  medicareNumber?: string;
}

/** On the details step (waited for): the patient's own fields filled in. */
export async function fillPatientDetails(page: Page, patient: DetailsPatient): Promise<void> {
  await expect(page.getByRole('heading', { level: 2, name: t('booking.details.title') })).toBeVisible();
  await page.getByRole('combobox', { name: t('booking.details.fields.title') }).selectOption(patient.title);
  await page.getByRole('textbox', { name: t('booking.details.fields.firstName') }).fill(patient.firstName);
  await page.getByRole('textbox', { name: t('booking.details.fields.lastName') }).fill(patient.lastName);
  await page.getByLabel(t('booking.details.fields.dateOfBirth')).fill(patient.dateOfBirth);
  await page.getByRole('textbox', { name: t('booking.details.fields.email') }).fill(patient.email);
  await page.getByRole('textbox', { name: t('booking.details.fields.contactNumber') }).fill(patient.contactNumber);
  await page.getByRole('textbox', { name: t('booking.details.fields.postalCode') }).fill(patient.postalCode);
  if (patient.medicareNumber === undefined) return;
  const medicare = page.getByRole('textbox', { name: t('booking.details.fields.medicareNumber') });
  if (await medicare.isVisible()) await medicare.fill(patient.medicareNumber);
}
