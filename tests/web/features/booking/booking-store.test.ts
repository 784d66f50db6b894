import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserLocator } from '../../../../src-web/features/booking/booking-locator';
import type { BookingStore } from '../../../../src-web/features/booking/booking-store';
import { json, text } from '../../helpers/api-server';
import { fillPatient, WALK_IN } from './booking-fixtures';
import { refusingLocator, setup } from './booking-store-setup';

/** Exams chosen, clinic chosen, first free time held. */
async function toHeldTime(store: BookingStore, exams: string[] = ['ct-brain']) {
  for (const slug of exams) store.examChoice.toggleExam(slug);
  store.examChoice.chooseWalkIn(null);
  await store.goToLocation();
  await store.placeAndTime.selectClinic('parramatta');
  const day = store.placeAndTime.days[1];
  const slot = day?.slots[0];
  if (!day || !slot) throw new Error('no free time in the fixture');
  await store.placeAndTime.pickTime(day.date, slot);
  return { day, slot };
}

/** Goes on to the details step and fills the patient in (booking-fixtures.ts); the form, for changes before sending. */
async function toFilledDetails(store: BookingStore) {
  await store.goToDetails();
  const form = store.submission.patientForm;
  if (!form) throw new Error('no form');
  fillPatient(form);
  return form;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('BookingStore', () => {
  it('should report only the step the patient settles on after quick changes', async () => {
    const { store, reported } = await setup({ deps: { stepReportDelayMs: 400 }, notStarted: true });
    // Loaded before the start, so a slow first import is not the patient settling on step 0.
    await store.loadLaterSteps();
    await store.start(new URLSearchParams());
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    store.goBack();
    await store.goToLocation();
    await vi.waitFor(() => expect(reported).toEqual([1]));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reported).toEqual([1]);
  });

  it('should open the walk-in dialog for two exams of differing modalities and record the walk-in', async () => {
    const { store, log } = await setup();
    store.examChoice.toggleExam('ct-brain');
    store.examChoice.toggleExam('ct-chest');
    expect(store.examChoice.walkInOpen).toBe(false);
    store.examChoice.toggleExam('xr-knee');
    expect(store.examChoice.walkInOpen).toBe(true);
    await vi.waitFor(() => expect(store.examChoice.walkInState).toBe('loaded'));
    expect(log.find((request) => request.path === '/api/booking/walk-in-exams')?.query.get('modality')).toBe('m-xr');
    expect(store.examChoice.walkInOptions).toEqual([WALK_IN]);
    expect(store.examChoice.canContinue).toBe(false);
    store.examChoice.chooseWalkIn(WALK_IN);
    expect(store.examChoice.walkInExam).toEqual(WALK_IN);
    expect(store.examChoice.walkInOpen).toBe(false);
    // Same combination again: not asked twice.
    store.examChoice.toggleExam('ct-chest');
    store.examChoice.toggleExam('ct-chest');
    expect(store.examChoice.walkInOpen).toBe(false);
  });

  it('should send the walk-in exam with the booking', async () => {
    const { store, log } = await setup();
    store.examChoice.toggleExam('ct-brain');
    store.examChoice.toggleExam('xr-knee');
    await vi.waitFor(() => expect(store.examChoice.walkInState).toBe('loaded'));
    store.examChoice.chooseWalkIn(WALK_IN);
    await store.goToLocation();
    await store.placeAndTime.selectClinic('parramatta');
    const day = store.placeAndTime.days[0];
    if (!day?.slots[1]) throw new Error('fixture');
    await store.placeAndTime.pickTime(day.date, day.slots[1]);
    await toFilledDetails(store);
    expect(await store.submission.submit()).toBe(true);
    const post = log.find((request) => request.path === '/api/booking/appointments');
    // The X-ray is the walk-in: only the CT gets the time (exams of two modalities cannot share one).
    expect(post?.body).toMatchObject({ exams: ['ct-brain'], walkInExam: WALK_IN, clinicSlug: 'parramatta' });
    const availability = log.find((request) => request.path === '/api/booking/availability');
    expect(availability?.query.get('exams')).toBe('ct-brain');
    expect(log.find((request) => request.path === '/api/booking/clinics')?.query.get('exams')).toBe('ct-brain,xr-knee');
  });

  it('should take the other-modality exams out of the booking when no walk-in is wanted', async () => {
    const { store } = await setup();
    store.examChoice.toggleExam('mri-knee');
    store.examChoice.toggleExam('ct-brain');
    expect(store.examChoice.walkInOpen).toBe(true);
    store.examChoice.chooseWalkIn(null);
    expect(store.examChoice.selectedSlugs).toEqual(['mri-knee']);
    expect(store.examChoice.walkInExam).toBeNull();
  });

  it('should filter exams by modality and body part, or by name', async () => {
    const { store } = await setup();
    store.examChoice.setModality('m-mr');
    expect(store.examChoice.visibleExams.map((exam) => exam.slug)).toEqual(['mri-knee']);
    expect(store.examChoice.availableBodyParts).toEqual(new Set(['knee']));
    store.examChoice.setModality(null);
    store.examChoice.toggleBodyPart('knee');
    expect(store.examChoice.visibleExams.map((exam) => exam.slug)).toEqual(['mri-knee', 'xr-knee']);
    store.examChoice.setModality('m-ct');
    expect(store.examChoice.bodyPartFilter).toBeNull(); // no CT knee exam: the body part is cleared
    store.examChoice.setSearch('BRAIN');
    expect(store.examChoice.visibleExams.map((exam) => exam.slug)).toEqual(['ct-brain']);
  });

  it('should list clinics from the default location quietly, without asking the browser or opening a window', async () => {
    const browserPosition = vi.fn(() => Promise.reject(new Error('denied')));
    const { store, log } = await setup({ deps: { locator: { ...refusingLocator, browserPosition } } });
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    expect(browserPosition).not.toHaveBeenCalled();
    expect(store.placeAndTime.location.unableToLocateOpen).toBe(false);
    expect(store.placeAndTime.clinicsState).toBe('loaded');
    const clinicsCall = log.find((request) => request.path === '/api/booking/clinics');
    expect(clinicsCall?.query.get('exams')).toBe('ct-brain');
    expect(clinicsCall?.query.has('lat')).toBe(false);
  });

  it('should open the unable-to-locate window when "Use my location" fails, unless the provider disabled it', async () => {
    const { store } = await setup();
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    await store.placeAndTime.location.useBrowserLocation();
    expect(store.placeAndTime.location.unableToLocateOpen).toBe(true);
    const quiet = await setup({ flags: { showUnableToLocateWindow: false } });
    quiet.store.examChoice.toggleExam('ct-brain');
    await quiet.store.goToLocation();
    await quiet.store.placeAndTime.location.useBrowserLocation();
    expect(quiet.store.placeAndTime.location.unableToLocateOpen).toBe(false);
    expect(quiet.store.placeAndTime.location.browserFailed).toBe(true);
  });

  it('should use lat and lng from the query before asking the browser', async () => {
    const browserPosition = vi.fn(() => Promise.resolve({ latitude: 0, longitude: 0 }));
    const { store, log } = await setup({
      deps: { locator: { ...refusingLocator, browserPosition } },
    });
    await store.start(new URLSearchParams('lat=-33.81&lng=151.0'));
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    expect(browserPosition).not.toHaveBeenCalled();
    const clinicsCall = log.find((request) => request.path === '/api/booking/clinics');
    expect(clinicsCall?.query.get('lat')).toBe('-33.81');
    expect(store.placeAndTime.position?.source).toBe('query');
  });

  it('should start a kiosk from its stored postcode and keep a newly located one in the cookie', async () => {
    document.cookie = 'postalCodeLocationId=2150; path=/';
    const browserPosition = vi.fn(() => Promise.reject(new Error('denied')));
    const { store, log } = await setup({ deps: { locator: { ...createBrowserLocator(window, () => true), browserPosition } } });
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    expect(store.placeAndTime.position).toMatchObject({ latitude: -33.81, longitude: 151.0, source: 'kiosk' });
    expect(browserPosition).not.toHaveBeenCalled();
    expect(log.some((request) => request.path === '/api/booking/postcodes/2150')).toBe(true);
    expect(store.placeAndTime.location.unableToLocateOpen).toBe(false);
    document.cookie = 'postalCodeLocationId=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    expect(await store.placeAndTime.location.locatePostcode('2150')).toBe(true);
    expect(document.cookie).toContain('postalCodeLocationId=2150');
    document.cookie = 'postalCodeLocationId=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('should not touch the kiosk cookie outside kiosk mode', async () => {
    const { store } = await setup({ deps: { locator: createBrowserLocator(window, () => false) } });
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    expect(await store.placeAndTime.location.locatePostcode('2150')).toBe(true);
    expect(document.cookie).not.toContain('postalCodeLocationId');
  });

  it('should locate a postcode and explain an unknown or malformed one', async () => {
    const { store } = await setup();
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    store.placeAndTime.location.openPostcodeLocator();
    expect(await store.placeAndTime.location.locatePostcode('21')).toBe(false);
    expect(store.placeAndTime.location.postcodeProblem).toBe('invalid');
    expect(await store.placeAndTime.location.locatePostcode('9999')).toBe(false);
    expect(store.placeAndTime.location.postcodeProblem).toBe('unknown');
    expect(await store.placeAndTime.location.locatePostcode('2150')).toBe(true);
    expect(store.placeAndTime.position).toMatchObject({ latitude: -33.81, longitude: 151.0, source: 'postcode' });
    expect(store.placeAndTime.location.postcodeLocatorOpen).toBe(false);
  });

  it('should hold a time when it is picked and release it when another is picked', async () => {
    const { store, log } = await setup();
    const { day } = await toHeldTime(store);
    expect(store.placeAndTime.hold?.holdId).toBe('hold-00000000000000000001');
    expect(log.find((request) => request.path === '/api/booking/holds')?.body).toMatchObject({
      exams: ['ct-brain'],
      clinicSlug: 'parramatta',
    });
    const other = day.slots[1];
    if (!other) throw new Error('fixture');
    await store.placeAndTime.pickTime(day.date, other);
    await vi.waitFor(() =>
      expect(log.some((request) => request.method === 'DELETE' && request.path.endsWith('hold-00000000000000000001'))).toBe(true),
    );
    expect(store.placeAndTime.hold?.holdId).toBe('hold-00000000000000000002');
    expect(store.placeAndTime.canContinue).toBe(true);
  });

  it('should reset the date and time (and release the hold) when the view is toggled', async () => {
    const { store, log } = await setup();
    await toHeldTime(store);
    expect(store.query.date).not.toBeNull();
    await store.placeAndTime.setView('MONTH');
    expect(store.placeAndTime.selectedDate).toBeNull();
    expect(store.placeAndTime.selectedStartsAt).toBeNull();
    expect(store.placeAndTime.hold).toBeNull();
    expect(store.query).toMatchObject({ view: 'MONTH', date: null, time: null });
    await vi.waitFor(() => expect(log.some((request) => request.method === 'DELETE')).toBe(true));
    expect(log.some((request) => request.path === '/api/booking/availability/month')).toBe(true);
    await store.placeAndTime.setView('WEEK');
    expect(store.placeAndTime.selectedDate).toBeNull();
  });

  it('should open the first day with a free time of the chosen clinic, and let go of the time when another day is chosen', async () => {
    const { store } = await setup();
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    await store.placeAndTime.selectClinic('parramatta');
    expect(store.placeAndTime.selectedDate).toBe('2026-11-23');
    const slot = store.placeAndTime.selectedDay?.slots[1];
    if (!slot) throw new Error('fixture');
    await store.placeAndTime.pickTime('2026-11-23', slot);
    expect(store.placeAndTime.hold).not.toBeNull();
    await store.placeAndTime.selectDate('2026-11-25');
    expect(store.placeAndTime.selectedStartsAt).toBeNull();
    expect(store.placeAndTime.hold).toBeNull();
    await store.placeAndTime.moveWeek(1);
    expect(store.placeAndTime.weekFrom).toBe('2026-11-30');
    expect(store.placeAndTime.selectedDate).toBe('2026-11-30');
    expect(store.placeAndTime.canGoToPreviousWeek).toBe(true);
  });

  it('should start the week on the locale week start, or today when configured', async () => {
    const { store } = await setup();
    expect((await store.loadLaterSteps()).placeAndTime.weekFrom).toBe('2026-11-23');
    const startsToday = await setup({ flags: { weekStartsTodayEnabled: true }, deps: { clock: () => new Date(2026, 10, 26, 12) } });
    expect((await startsToday.store.loadLaterSteps()).placeAndTime.weekFrom).toBe('2026-11-26');
  });

  it('should say a time was taken and show fresh times when the hold is refused', async () => {
    const { store, log } = await setup({
      hold: (_request, response) =>
        json(response, 409, {
          code: 'slot_taken',
          message: 'That time was just taken. Please choose another time.',
          details: { freshSlots: [] },
        }),
    });
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    await store.placeAndTime.selectClinic('parramatta');
    const before = log.filter((request) => request.path === '/api/booking/availability').length;
    const day = store.placeAndTime.days[0];
    if (!day?.slots[0]) throw new Error('fixture');
    await store.placeAndTime.pickTime(day.date, day.slots[0]);
    expect(store.placeAndTime.slotTaken).toBe(true);
    expect(store.placeAndTime.selectedStartsAt).toBeNull();
    expect(store.placeAndTime.canContinue).toBe(false);
    expect(log.filter((request) => request.path === '/api/booking/availability').length).toBe(before + 1);
  });

  it('should submit with a UUID Idempotency-Key and reuse it when the answer was lost', async () => {
    let attempts = 0;
    const { store, log } = await setup({
      createAppointments: (_request, response) => {
        attempts += 1;
        if (attempts === 1) {
          response.destroy(); // no answer: the browser cannot know whether it was booked
          return;
        }
        json(response, 201, { bookingKey: 'key-1', status: 'BOOKED', appointments: [] });
      },
    });
    await toHeldTime(store);
    const form = await toFilledDetails(store);
    form.setValue('medicareNumber', '');
    expect(await store.submission.submit()).toBe(false);
    expect(store.submission.modalFailure).toEqual({ kind: 'general' });
    store.submission.failure = null;
    expect(await store.submission.submit()).toBe(true);
    const posts = log.filter((request) => request.path === '/api/booking/appointments');
    expect(posts.length).toBeGreaterThanOrEqual(1);
    const keys = posts.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(posts.at(-1)?.body).toMatchObject({
      holdId: 'hold-00000000000000000001',
      exams: ['ct-brain'],
      patient: { title: 'Ms', firstName: 'Amelia', lastName: "O'Sample", contactNumber: '0491570156', postalCode: '2067' },
    });
    expect(store.step).toBe(3);
    expect(store.submission.result?.kind).toBe('appointment');
    // Coming back to the page later starts a new booking.
    await store.start(new URLSearchParams());
    expect(store.step).toBe(0);
    expect(store.examChoice.selectedSlugs).toEqual([]);
    expect(store.submission.result).toBeNull();
  });

  it('should keep the details and say when to try again when the booking limits refuse, staying on the details step', async () => {
    const { store } = await setup({
      createAppointments: (_request, response) =>
        json(response, 429, { code: 'too_many_requests', message: 'Too many bookings.', details: { retryAfterSeconds: 3600 } }),
    });
    await toHeldTime(store);
    const form = await toFilledDetails(store);
    const typed = { ...form.values };
    expect(await store.submission.submit()).toBe(false);
    expect(store.submission.failure).toEqual({ kind: 'too_many', retryAt: '2026-11-23T02:00:00.000Z' });
    expect(store.submission.modalFailure).toBeNull();
    expect(store.step).toBe(2);
    expect(store.submission.patientForm?.values).toEqual(typed);
  });

  it('should not send anything while a field is wrong', async () => {
    const { store, log } = await setup();
    await toHeldTime(store);
    const form = await toFilledDetails(store);
    form.setValue('contactNumber', '04915701561');
    expect(await store.submission.submit()).toBe(false);
    expect(store.submission.patientForm?.visibleProblem('contactNumber')).toBe('invalid');
    expect(log.some((request) => request.path === '/api/booking/appointments')).toBe(false);
  });

  it('should go back to fresh times with the clear message when the time was taken at submit', async () => {
    const { store } = await setup({
      createAppointments: (_request, response) =>
        json(response, 409, { code: 'slot_taken', message: 'That time was just taken. Please choose another time.' }),
    });
    const { day } = await toHeldTime(store);
    await toFilledDetails(store);
    expect(await store.submission.submit()).toBe(false);
    expect(store.step).toBe(1);
    expect(store.placeAndTime.slotTaken).toBe(true);
    expect(store.placeAndTime.selectedStartsAt).toBeNull();
    expect(store.placeAndTime.selectedDate).toBe(day.date);
    expect(store.placeAndTime.daysState).toBe('loaded');
  });

  it.each([
    [503, { kind: 'server', status: 503 }],
    [504, { kind: 'server', status: 504 }],
    [505, { kind: 'general' }],
  ] as const)('should map a %i to the error modal; closing it reloads the times and clears date and time', async (status, expected) => {
    const { store, log } = await setup({
      createAppointments: (_request, response) => text(response, status, 'upstream trouble'),
    });
    await toHeldTime(store);
    await toFilledDetails(store);
    expect(await store.submission.submit()).toBe(false);
    expect(store.submission.modalFailure).toEqual(expected);
    expect(store.step).toBe(2);
    const before = log.filter((request) => request.path === '/api/booking/availability').length;
    await store.closeFailure();
    expect(store.step).toBe(1);
    expect(store.query).toMatchObject({ date: null, time: null, step: '1' });
    expect(log.filter((request) => request.path === '/api/booking/availability').length).toBe(before + 1);
  });

  it('should turn enquiry exams into a booking request without a time', async () => {
    const { store, log } = await setup();
    store.examChoice.toggleExam('ir-spine-injection');
    expect(store.examChoice.requestInfoOpen).toBe(true);
    expect(store.examChoice.isBookingRequest).toBe(true);
    await store.goToLocation();
    expect(store.placeAndTime.canContinue).toBe(true);
    await store.placeAndTime.selectClinic('chatswood');
    expect(log.some((request) => request.path === '/api/booking/availability')).toBe(false);
    const form = await toFilledDetails(store);
    form.setNotes('Referral from Dr Smith');
    expect(await store.submission.submit()).toBe(true);
    expect(log.find((request) => request.path === '/api/booking/booking-requests')?.body).toEqual({
      exams: ['ir-spine-injection'],
      clinicSlug: 'chatswood',
      patient: {
        title: 'Ms',
        firstName: 'Amelia',
        lastName: "O'Sample",
        dateOfBirth: '1968-11-02',
        email: 'amelia@example.com',
        contactNumber: '0491570156',
        postalCode: '2067',
      },
      patientNotes: 'Referral from Dr Smith',
    });
    expect(store.submission.result?.kind).toBe('request');
  });

  it('should fail a booking request with the first error when none was created', async () => {
    const { store } = await setup({
      bookingRequests: (_request, response) =>
        json(response, 201, {
          bookingKey: 'k',
          results: [{ examSlug: 'ir-spine-injection', success: false, errorMessage: 'No radiologist available' }],
        }),
    });
    store.examChoice.toggleExam('ir-spine-injection');
    await store.goToLocation();
    await toFilledDetails(store);
    expect(await store.submission.submit()).toBe(false);
    expect(store.submission.failure).toEqual({ kind: 'invalid', message: 'No radiologist available' });
    expect(store.step).toBe(2);
  });

  it('should choose the clinic a link names as soon as it is listed', async () => {
    const { store } = await setup();
    await store.start(new URLSearchParams('clinic=chatswood'));
    store.examChoice.toggleExam('ct-brain');
    await store.goToLocation();
    expect(store.placeAndTime.selectedClinicSlug).toBe('chatswood');
    expect(store.placeAndTime.daysState).toBe('loaded');
  });

  it('should build the later steps only when asked, and hand them the link and the month view of a second start', async () => {
    const { store } = await setup();
    await store.start(new URLSearchParams('clinic=chatswood'));
    store.examChoice.toggleExam('ct-brain');
    expect(store.later).toBeNull();
    expect(store.result).toBeNull();
    expect(store.query.step).toBeNull();
    store.goBack();
    await store.goToDetails();
    expect(store.step).toBe(0);
    await store.start(new URLSearchParams('exams=ct-brain&view=MONTH'));
    const later = await store.loadLaterSteps();
    expect(await store.loadLaterSteps()).toBe(later);
    expect(later.placeAndTime.preferredClinic).toBeNull();
    expect(later.placeAndTime.view).toBe('MONTH');
  });

  it('should restore exams, clinic, date and time from the URL', async () => {
    const { store } = await setup();
    await store.start(new URLSearchParams('step=1&exams=ct-brain,nope&clinic=parramatta&date=2026-11-25&time=2026-11-24T22:30:00.000Z'));
    expect(store.examChoice.selectedSlugs).toEqual(['ct-brain']);
    expect(store.step).toBe(1);
    expect(store.placeAndTime.selectedClinicSlug).toBe('parramatta');
    expect(store.placeAndTime.selectedStartsAt).toBe('2026-11-24T22:30:00.000Z');
    expect(store.placeAndTime.hold).not.toBeNull();
  });

  it('should restore the exams of a reloaded step 1 while the page is still prefetching the catalogue', async () => {
    const { store, log } = await setup({ notStarted: true });
    // src-web/start.tsx asks for the catalogue before the booking page starts.
    const prefetch = store.examChoice.loadCatalogue();
    await store.start(new URLSearchParams('step=1&exams=ct-brain'));
    await prefetch;
    expect(store.examChoice.selectedSlugs).toEqual(['ct-brain']);
    expect(store.step).toBe(1);
    expect(log.filter((request) => request.path === '/api/booking/catalogue').length).toBe(1);
  });
});
