import { makeAutoObservable, observableRef } from 'mobx';
import {
  PATIENT_DETAIL_FIELDS,
  PATIENT_TITLES,
  PatientDetailsSchema,
  ValidationCodeSchema,
  type PatientDetails,
} from '@contract/api/booking';
import type { BookingFormAnswers } from '@contract/api/booking-form-details';
import type { DetailsField, FormDetailsForm } from './booking-form-details';

/**
 * The patient details form of the booking flow (docs/rules/booking.md#patient-details). The rules are the contract's own
 * field schemas, so the web shows exactly what the server would refuse, next to the field and
 * before submitting. This module (and zod with it) loads only when the details step opens.
 */
export const PATIENT_FIELDS = [...PATIENT_DETAIL_FIELDS, 'validationCode'] as const;
export type PatientField = (typeof PATIENT_FIELDS)[number];
export type FieldProblem = 'required' | 'invalid' | 'future';

export const TITLES: readonly string[] = PATIENT_TITLES;

const shape = PatientDetailsSchema.shape;

export class PatientForm {
  values: Record<PatientField, string> = {
    title: '',
    firstName: '',
    lastName: '',
    dateOfBirth: '',
    email: '',
    contactNumber: '',
    postalCode: '',
    medicareNumber: '',
    validationCode: '',
  };
  patientNotes = '';
  /** Fields whose problem is shown: left once (blur) or everything after a submit attempt. */
  touched = new Set<PatientField>();
  /** Insurance, ethnicity and referring practice, once the provider's lists have loaded (booking-form-details.ts). */
  details: FormDetailsForm | null = null;

  constructor(
    /** The exams (or an outcome) need a Medicare number. */
    readonly medicareRequired: boolean,
    private readonly today: () => string,
    /** A VALIDATION_CODE_REQUIRED questionnaire outcome asks for a validation code; the field shows only then. */
    readonly validationCodeRequired = false,
  ) {
    makeAutoObservable<this, 'today'>(this, {
      medicareRequired: false,
      validationCodeRequired: false,
      today: false,
      details: observableRef,
    });
  }

  /** The Medicare number is asked when the exams need it or Medicare is chosen to pay. */
  get medicareAsked(): boolean {
    return this.medicareRequired || (this.details?.needsMedicare ?? false);
  }

  get fields(): readonly PatientField[] {
    return PATIENT_FIELDS.filter(
      (field) => (field !== 'medicareNumber' || this.medicareAsked) && (field !== 'validationCode' || this.validationCodeRequired),
    );
  }

  attachDetails(details: FormDetailsForm): void {
    this.details = details;
  }

  /** The problem with a field's current value, or null. */
  problemOf(field: PatientField): FieldProblem | null {
    const value = this.values[field].trim();
    if (field === 'medicareNumber') {
      if (!this.medicareAsked) return null;
      if (value === '') return 'required';
      return shape.medicareNumber.safeParse(value.replace(/\s+/g, '')).success ? null : 'invalid';
    }
    if (value === '') return 'required';
    if (field === 'validationCode') return ValidationCodeSchema.safeParse(value).success ? null : 'invalid';
    if (field === 'dateOfBirth') {
      if (!shape.dateOfBirth.safeParse(value).success) return 'invalid';
      return value > this.today() ? 'future' : null;
    }
    return shape[field].safeParse(value).success ? null : 'invalid';
  }

  /** The problem to show next to a field now (only once the field was left or submit tried). */
  visibleProblem(field: PatientField): FieldProblem | null {
    return this.touched.has(field) ? this.problemOf(field) : null;
  }

  get isValid(): boolean {
    return this.fields.every((field) => this.problemOf(field) === null) && (this.details?.isValid ?? true);
  }

  /** The first field to fix, in the page's order: the patient's fields, then the booking form's details. */
  get firstInvalidField(): PatientField | DetailsField | null {
    return this.fields.find((field) => this.problemOf(field) !== null) ?? this.details?.firstInvalidField ?? null;
  }

  /** The booking form's details to send, if any were answered. */
  toFormDetails(): BookingFormAnswers | undefined {
    return this.details?.toAnswers();
  }

  setValue(field: PatientField, value: string): void {
    this.values[field] = field === 'contactNumber' ? value.replace(/\s+/g, '') : value;
  }

  setNotes(notes: string): void {
    this.patientNotes = notes;
  }

  touch(field: PatientField): void {
    this.touched.add(field);
  }

  touchAll(): void {
    for (const field of this.fields) this.touched.add(field);
    this.details?.touchAll();
  }

  /** The validation code as the contract wants it, when the field is asked for. */
  get validationCode(): string | undefined {
    const parsed = ValidationCodeSchema.safeParse(this.values.validationCode);
    return this.validationCodeRequired && parsed.success ? parsed.data : undefined;
  }

  /** The details as the contract wants them; call only when isValid. */
  toPatientDetails(): PatientDetails {
    const v = this.values;
    const title = PATIENT_TITLES.find((candidate) => candidate === v.title) ?? PATIENT_TITLES[0];
    // A number typed for Medicare and left when another way to pay was chosen is not sent.
    const medicare = this.medicareAsked ? v.medicareNumber.replace(/\s+/g, '') : '';
    return {
      title,
      firstName: v.firstName.trim(),
      lastName: v.lastName.trim(),
      dateOfBirth: v.dateOfBirth,
      email: v.email.trim(),
      contactNumber: v.contactNumber,
      postalCode: v.postalCode.trim(),
      ...(medicare !== '' ? { medicareNumber: medicare } : {}),
    };
  }
}
