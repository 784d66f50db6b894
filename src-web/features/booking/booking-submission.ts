import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { AppointmentCreateResponse, BookingRequestCreateResponse, WalkInExam } from '@contract/api/booking';
import type { BookingApi } from '../../api/booking-api';
import { ApiError } from '../../api/client';
import { bookingFailure, isModalFailure, type BookingFailure } from './booking-errors';
import type { PatientForm } from './booking-patient-form';

export type BookingResult =
  { kind: 'appointment'; response: AppointmentCreateResponse } | { kind: 'request'; response: BookingRequestCreateResponse };

/** The exam choice as the booking call sees it. */
export interface SubmittedExams {
  readonly selectedSlugs: string[];
  readonly bookedSlugs: string[];
  readonly isBookingRequest: boolean;
  readonly medicareRequired: boolean;
  readonly walkInExam: WalkInExam | null;
  readonly questionnaireKey: string | null;
  readonly questionnaireValidationCodeRequired: boolean;
}

/** The chosen clinic and time as the booking call sees them. */
export interface SubmittedTime {
  readonly selectedClinicSlug: string | null;
  readonly selectedStartsAt: string | null;
  readonly hold: { holdId: string } | null;
}

export interface SubmissionDeps {
  api: Pick<BookingApi, 'createAppointments' | 'createBookingRequests'>;
  today: () => string;
  /** The app's clock: when a refusal's Retry-After ends. */
  now?: () => Date;
  /** A fresh UUID for the Idempotency-Key header. */
  newIdempotencyKey: () => string;
  /** Loads the patient form (and the contract's validation rules with it) when the details open. */
  loadPatientForm?: () => Promise<typeof import('./booking-patient-form')>;
  exams: SubmittedExams;
  time: SubmittedTime;
  staffBooking: () => boolean;
  /** The booking was made: on to the confirmation (called inside the action that records it). */
  booked: () => void;
  /** The chosen time went to someone else: back to the times with the notice. */
  timeTaken: () => void;
  reloadTimes: () => Promise<void>;
  /** A keyed booking was refused: the questionnaire answers move to a new key. */
  questionnaireFailed: () => Promise<void>;
}

/**
 * Steps 2 and 3 of the booking flow: the patient form, the booking (or booking request) call
 * with its Idempotency-Key, its failure and its result for the confirmation.
 */
export class BookingSubmission {
  patientForm: PatientForm | null = null;
  submitting = false;
  failure: BookingFailure | null = null;
  result: BookingResult | null = null;

  private readonly deps: SubmissionDeps;
  private idempotencyKey: string | null = null;

  constructor(deps: SubmissionDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'idempotencyKey'>(this, {
      deps: false,
      idempotencyKey: false,
      result: observableRef,
      patientForm: observableRef,
    });
  }

  get modalFailure(): BookingFailure | null {
    return this.failure && isModalFailure(this.failure) ? this.failure : null;
  }

  /**
   * Before the details open: no failure shown, and a patient form asking what the chosen exams
   * need (Medicare, validation code); values typed earlier are kept.
   */
  async preparePatientForm(): Promise<void> {
    this.failure = null;
    const exams = this.deps.exams;
    const form0 = this.patientForm;
    if (
      !form0 ||
      form0.medicareRequired !== exams.medicareRequired ||
      form0.validationCodeRequired !== exams.questionnaireValidationCodeRequired
    ) {
      const load = this.deps.loadPatientForm ?? (() => import('./booking-patient-form'));
      const { PatientForm } = await load();
      const form = new PatientForm(exams.medicareRequired, this.deps.today, exams.questionnaireValidationCodeRequired);
      if (this.patientForm) Object.assign(form.values, this.patientForm.values);
      // The insurance, ethnicity and practice answers move to the new form too.
      if (this.patientForm?.details) form.attachDetails(this.patientForm.details);
      runInAction(() => {
        this.patientForm = form;
      });
    }
  }

  /**
   * Submits the details. Fields are checked first (nothing is sent while one is wrong). One
   * Idempotency-Key is used for every retry of the same booking, so a retry creates nothing twice.
   * @returns true when the booking (or booking request) was made.
   */
  async submit(): Promise<boolean> {
    const form = this.patientForm;
    if (!form || this.submitting) return false;
    form.touchAll();
    if (!form.isValid) return false;
    this.submitting = true;
    this.failure = null;
    this.idempotencyKey ??= this.deps.newIdempotencyKey();
    const key = this.idempotencyKey;
    try {
      const result = this.deps.exams.isBookingRequest ? await this.submitRequest(key, form) : await this.submitAppointment(key, form);
      runInAction(() => {
        this.result = result;
        this.submitting = false;
        this.idempotencyKey = null;
        this.deps.booked();
      });
      return true;
    } catch (error) {
      // The patient's details stay in the form whatever the failure: nothing typed is lost.
      const failure = bookingFailure(error, this.deps.now);
      runInAction(() => {
        this.submitting = false;
        this.failure = failure;
        // Only an answered refusal ends this attempt; a lost answer is retried with the same key.
        if (failure.kind !== 'general') this.idempotencyKey = null;
        if (failure.kind === 'slot_taken') this.deps.timeTaken();
      });
      if (failure.kind !== 'general' && this.deps.exams.questionnaireKey) await this.deps.questionnaireFailed().catch(() => undefined);
      if (failure.kind === 'slot_taken') await this.deps.reloadTimes();
      return false;
    }
  }

  private async submitAppointment(key: string, form: PatientForm): Promise<BookingResult> {
    const { exams, time } = this.deps;
    const clinic = time.selectedClinicSlug;
    const startsAt = time.selectedStartsAt;
    if (!clinic || !startsAt) throw new Error('no time chosen');
    const response = await this.deps.api.createAppointments(
      {
        holdId: time.hold?.holdId,
        exams: exams.bookedSlugs,
        clinicSlug: clinic,
        startsAt,
        patient: form.toPatientDetails(),
        ...(exams.walkInExam ? { walkInExam: exams.walkInExam } : {}),
        ...(this.deps.staffBooking() ? { staffBooking: true } : {}),
        ...(exams.questionnaireKey ? { questionnaireKey: exams.questionnaireKey } : {}),
        ...(form.validationCode ? { validationCode: form.validationCode } : {}),
        ...(form.toFormDetails() ? { formDetails: form.toFormDetails() } : {}),
      },
      key,
    );
    return { kind: 'appointment', response };
  }

  /** Enquiry exams: success when at least one request was created, else the first error. */
  private async submitRequest(key: string, form: PatientForm): Promise<BookingResult> {
    const { exams, time } = this.deps;
    const notes = form.patientNotes.trim();
    const response = await this.deps.api.createBookingRequests(
      {
        exams: exams.selectedSlugs,
        ...(time.selectedClinicSlug ? { clinicSlug: time.selectedClinicSlug } : {}),
        patient: form.toPatientDetails(),
        ...(notes ? { patientNotes: notes } : {}),
        ...(exams.questionnaireKey ? { questionnaireKey: exams.questionnaireKey } : {}),
        ...(form.validationCode ? { validationCode: form.validationCode } : {}),
        ...(form.toFormDetails() ? { formDetails: form.toFormDetails() } : {}),
      },
      key,
    );
    if (!response.results.some((result) => result.success)) {
      const message = response.results.find((result) => result.errorMessage)?.errorMessage ?? '';
      throw new ApiError('http', 422, 'bad_request', message);
    }
    return { kind: 'request', response };
  }

  /**
   * Hides the failure.
   * @returns true when it was the server-error modal (the flow then goes back to the times).
   */
  dismissFailure(): boolean {
    const modal = this.modalFailure !== null;
    this.failure = null;
    return modal;
  }

  /** A new time is held: the next attempt is a new booking with a new key. */
  forgetKey(): void {
    this.idempotencyKey = null;
  }

  /** A new booking: no result, no failure. */
  reset(): void {
    this.result = null;
    this.failure = null;
  }
}
