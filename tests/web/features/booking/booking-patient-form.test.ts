import { describe, expect, it } from 'vitest';
import { PatientForm } from '../../../../src-web/features/booking/booking-patient-form';
import { fillPatient } from './booking-fixtures';

describe('PatientForm', () => {
  const today = () => '2026-11-23';

  it('should apply the patient-details rules field by field', () => {
    const form = new PatientForm(false, today);
    fillPatient(form);
    expect(form.isValid).toBe(true);
    form.setValue('dateOfBirth', '2026-11-24');
    expect(form.problemOf('dateOfBirth')).toBe('future');
    form.setValue('dateOfBirth', '2026-02-30');
    expect(form.problemOf('dateOfBirth')).toBe('invalid');
    form.setValue('dateOfBirth', '');
    expect(form.problemOf('dateOfBirth')).toBe('required');
    form.setValue('contactNumber', '04915701567');
    expect(form.problemOf('contactNumber')).toBe('invalid');
    form.setValue('contactNumber', '04a5');
    expect(form.problemOf('contactNumber')).toBe('invalid');
    form.setValue('email', 'not-an-email');
    expect(form.problemOf('email')).toBe('invalid');
    form.setValue('postalCode', '123');
    expect(form.problemOf('postalCode')).toBe('invalid');
    form.setValue('firstName', '4me');
    expect(form.problemOf('firstName')).toBe('invalid');
    expect(form.firstInvalidField).toBe('firstName');
  });

  it('should show a problem only once the field was left or a submit was tried', () => {
    const form = new PatientForm(false, today);
    expect(form.visibleProblem('email')).toBeNull();
    form.touch('email');
    expect(form.visibleProblem('email')).toBe('required');
    expect(form.visibleProblem('lastName')).toBeNull();
    form.touchAll();
    expect(form.visibleProblem('lastName')).toBe('required');
  });

  it('should require a valid Medicare number only when the exams need one', () => {
    const optional = new PatientForm(false, today);
    fillPatient(optional);
    expect(optional.fields).not.toContain('medicareNumber');
    expect(optional.isValid).toBe(true);
    const required = new PatientForm(true, today);
    fillPatient(required);
    expect(required.problemOf('medicareNumber')).toBe('required');
    required.setValue('medicareNumber', '2123 45670 1');
    expect(required.problemOf('medicareNumber')).toBeNull();
    required.setValue('medicareNumber', '2123456780');
    expect(required.problemOf('medicareNumber')).toBe('invalid');
    expect(required.toPatientDetails().medicareNumber).toBe('2123456780');
  });
});
