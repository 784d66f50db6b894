import type { BookingApi } from '../../api/booking-api';
import type { WeekStartDay } from './booking-calendar';
import { createBrowserLocator, type Locator, type LocatorSource } from './booking-locator';
import { BookingPlaceAndTime, type CalendarView, type ChosenExams } from './booking-place-and-time';
import { BookingSubmission, type SubmittedExams } from './booking-submission';

/** Steps 1 to 3's stores: place and time, then the details and the booking call. */
export interface LaterSteps {
  readonly placeAndTime: BookingPlaceAndTime;
  readonly submission: BookingSubmission;
}

/** What the link said about the place and time before their store existed (BookingStore.start). */
export interface PlaceRequest {
  queryPosition: { latitude: number; longitude: number } | null;
  preferredClinic: string | null;
  view: CalendarView;
}

/** What the later steps need from the flow (booking-store.ts). */
export interface LaterStepsContext {
  api: BookingApi;
  clock: () => Date;
  today: () => string;
  flags: () => { showUnableToLocateWindow: boolean; weekStartsTodayEnabled: boolean };
  weekStart: () => WeekStartDay;
  locator: Locator | LocatorSource;
  newIdempotencyKey: () => string;
  loadPatientForm?: () => Promise<typeof import('./booking-patient-form')>;
  exams: ChosenExams & SubmittedExams;
  staffBooking: () => boolean;
  request: PlaceRequest;
  /** The booking was made (inside the action that records it): the answers' key is spent, on to step 3. */
  booked: () => void;
  /** The chosen time went to someone else: back to step 1. */
  timeTaken: () => void;
  /** A keyed booking failed: the questionnaire answers move to a new key. */
  questionnaireFailed: () => Promise<void>;
}

/**
 * Builds the stores of steps 1 to 3. This module is a chunk of its own, loaded when the patient
 * chooses an exam (booking-page.tsx) or leaves the exams: the booking home's first screen is the
 * exam choice, and these stores are about 4 KB gzipped of its budget (docs/web.md#budgets).
 */
export function createLaterSteps(context: LaterStepsContext): LaterSteps {
  const placeAndTime: BookingPlaceAndTime = new BookingPlaceAndTime({
    api: context.api,
    today: context.today,
    flags: context.flags,
    weekStart: context.weekStart,
    locator: 'browser' in context.locator ? createBrowserLocator(context.locator.browser, context.locator.kiosk) : context.locator,
    exams: context.exams,
    holdTaken: () => submission.forgetKey(),
  });
  placeAndTime.queryPosition = context.request.queryPosition;
  placeAndTime.preferredClinic = context.request.preferredClinic;
  placeAndTime.view = context.request.view;
  const submission: BookingSubmission = new BookingSubmission({
    api: context.api,
    today: context.today,
    now: context.clock,
    newIdempotencyKey: context.newIdempotencyKey,
    loadPatientForm: context.loadPatientForm,
    exams: context.exams,
    time: placeAndTime,
    staffBooking: context.staffBooking,
    booked: () => {
      // The slot cache resets after a successful booking.
      placeAndTime.booked();
      context.booked();
    },
    timeTaken: () => {
      placeAndTime.timeTaken();
      context.timeTaken();
    },
    reloadTimes: () => placeAndTime.loadTimes(),
    questionnaireFailed: context.questionnaireFailed,
  });
  return { placeAndTime, submission };
}
