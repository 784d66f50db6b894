import { describe, expect, it } from 'vitest';
import { PATIENT_DETAIL_FIELDS, PatientDetailsSchema } from '@contract/api/booking';
import { PatientForm, type FieldProblem, type PatientField } from '../../../../src-web/features/booking/booking-patient-form';
import { fillPatient } from './booking-fixtures';

describe('PatientForm', () => {
  const today = () => '2026-11-23';

  it("asks for every one of the contract's patient details, in the schema's order", () => {
    expect(PATIENT_DETAIL_FIELDS).toEqual(Object.keys(PatientDetailsSchema.shape));
    expect(new PatientForm(true, today).fields).toEqual([...PATIENT_DETAIL_FIELDS]);
  });

  it('should apply the patient-details rules field by field', () => {
    const form = new PatientForm(false, today);
    fillPatient(form);
    expect(form.isValid).toBe(true);
    // Each value, one after another, and the problem its field then has.
    const values: [field: PatientField, value: string, problem: FieldProblem][] = [
      ['dateOfBirth', '2026-11-24', 'future'],
      ['dateOfBirth', '2026-02-30', 'invalid'],
      ['dateOfBirth', '', 'required'],
      ['contactNumber', '04915701567', 'invalid'],
      ['contactNumber', '04a5', 'invalid'],
      ['email', 'not-an-email', 'invalid'],
      ['postalCode', '123', 'invalid'],
      ['firstName', '4me', 'invalid'],
    ];
    for (const [field, value, problem] of values) {
      form.setValue(field, value);
      expect([field, value, form.problemOf(field)]).toEqual([field, value, problem]);
    }
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
