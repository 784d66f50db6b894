import { describe, expect, it } from 'vitest';
import type { BookingFormDetails, OrganisationSearchResponse } from '@contract/api/booking-form-details';
import { FormDetailsForm } from '../../../../src-web/features/booking/booking-form-details';
import { PatientForm } from '../../../../src-web/features/booking/booking-patient-form';
import { fillPatient } from './booking-fixtures';

// The booking form's details (docs/rules/booking.md#booking-form-details): what the details step
// asks for each way to pay, what it refuses before sending, and what it sends.

const CONFIG: BookingFormDetails = {
  insurance: {
    asked: true,
    required: true,
    types: [
      { code: 'MEDICARE', kind: 'MEDICARE', label: 'Medicare' },
      { code: 'DVA', kind: 'DVA', label: 'DVA' },
      { code: 'PRIVATE', kind: 'PRIVATE', label: 'Private health fund' },
      { code: 'SELF_PAY', kind: 'SELF_PAY', label: 'Self-pay' },
    ],
  },
  ethnicity: {
    asked: true,
    required: false,
    options: [
      { code: 'NO', label: 'No' },
      { code: 'NOT_STATED', label: 'Prefer not to say' },
    ],
  },
  referringPractice: { asked: true, required: false },
};

const HARBOUR = { name: 'Harbour Medical Centre', suburb: 'Parramatta' };

function searchFake(answer: OrganisationSearchResponse | Error = { organisations: [HARBOUR] }) {
  const asked: string[] = [];
  const search = (q: string): Promise<OrganisationSearchResponse> => {
    asked.push(q);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { asked, search };
}

describe('FormDetailsForm', () => {
  it('should ask the card details of the chosen way to pay only', () => {
    const form = new FormDetailsForm(CONFIG, searchFake().search);
    expect(form.fields).toEqual(['insurance', 'ethnicity', 'practiceName']);
    expect(form.problemOf('insurance')).toBe('required');
    form.setInsurance('PRIVATE');
    expect(form.fields).toEqual(['insurance', 'fundName', 'memberNumber', 'ethnicity', 'practiceName']);
    expect(form.firstInvalidField).toBe('fundName');
    form.setInsurance('DVA');
    expect(form.fields).toEqual(['insurance', 'memberNumber', 'ethnicity', 'practiceName']);
    form.setInsurance('SELF_PAY');
    expect(form.isValid).toBe(true);
    expect(form.toAnswers()).toEqual({ insurance: { typeCode: 'SELF_PAY' } });
  });

  it('should refuse what the server would refuse, with the problem shown once the field was left', () => {
    const form = new FormDetailsForm(CONFIG, searchFake().search);
    form.setInsurance('PRIVATE');
    form.setValue('fundName', 'Bupa');
    form.setValue('memberNumber', '12#4');
    expect(form.problemOf('memberNumber')).toBe('invalid');
    expect(form.visibleProblem('memberNumber')).toBeNull();
    form.touch('memberNumber');
    expect(form.visibleProblem('memberNumber')).toBe('invalid');
    form.setValue('memberNumber', '1'.repeat(31));
    expect(form.problemOf('memberNumber')).toBe('invalid');
    form.setValue('memberNumber', '1234 5678');
    form.setPracticeName('P'.repeat(121));
    expect(form.problemOf('practiceName')).toBe('invalid');
    form.setPracticeName('Harbour Medical');
    expect(form.isValid).toBe(true);
  });

  it('should keep what was typed for another way to pay, and send only the chosen one’s details', () => {
    const form = new FormDetailsForm(CONFIG, searchFake().search);
    form.setInsurance('PRIVATE');
    form.setValue('fundName', 'Bupa');
    form.setValue('memberNumber', ' 1234 5678 ');
    form.setInsurance('DVA');
    expect(form.toAnswers()).toEqual({ insurance: { typeCode: 'DVA', memberNumber: '1234 5678' } });
    form.setInsurance('PRIVATE');
    form.setEthnicity('NOT_STATED');
    expect(form.toAnswers()).toEqual({
      insurance: { typeCode: 'PRIVATE', memberNumber: '1234 5678', fundName: 'Bupa' },
      ethnicityCode: 'NOT_STATED',
    });
  });

  it('should keep optional questions behind one button until opened or answered, and show required ones', () => {
    const optional = { ...CONFIG, insurance: { ...CONFIG.insurance, required: false } };
    const form = new FormDetailsForm(optional, searchFake().search);
    expect(form.collapsed).toBe(true);
    form.open();
    expect(form.collapsed).toBe(false);
    // Answers typed before (back and forth between steps) keep the questions open.
    const answered = new FormDetailsForm(optional, searchFake().search);
    answered.setEthnicity('NO');
    expect(answered.collapsed).toBe(false);
    expect(new FormDetailsForm(CONFIG, searchFake().search).collapsed).toBe(false);
  });

  it('should search the directory from 3 characters and keep a typed name when nothing is chosen', async () => {
    const fake = searchFake();
    const form = new FormDetailsForm(CONFIG, fake.search);
    form.setPracticeName('ha');
    await form.searchPractices();
    expect(fake.asked).toEqual([]);
    form.setPracticeName('  Harbour   Med ');
    await form.searchPractices();
    expect(fake.asked).toEqual(['harbour med']);
    expect(form.organisations).toEqual([HARBOUR]);
    expect(form.toAnswers()).toEqual({ referringPractice: { name: 'Harbour   Med' } });
    form.choosePractice(HARBOUR);
    expect(form.organisations).toEqual([]);
    // A chosen practice is not searched again, and carries its suburb.
    expect(form.searchText).toBeNull();
    expect(form.toAnswers()).toEqual({ referringPractice: HARBOUR });
    // Typing again makes it a typed name: no suburb.
    form.setPracticeName('Harbour Medical Centre West');
    expect(form.toAnswers()).toEqual({ referringPractice: { name: 'Harbour Medical Centre West' } });
  });

  it('should leave typing free when the search fails', async () => {
    const form = new FormDetailsForm(CONFIG, searchFake(new Error('offline')).search);
    form.setPracticeName('Harbour');
    await form.searchPractices();
    expect(form.searchFailed).toBe(true);
    expect(form.searching).toBe(false);
    expect(form.toAnswers()).toEqual({ referringPractice: { name: 'Harbour' } });
  });
});

describe('PatientForm with the booking form details', () => {
  const today = () => '2026-11-23';

  it('should ask the Medicare number when Medicare pays, and not send one typed before another choice', () => {
    const form = new PatientForm(false, today);
    fillPatient(form);
    const details = new FormDetailsForm(CONFIG, searchFake().search);
    form.attachDetails(details);
    expect(form.isValid).toBe(false);
    expect(form.firstInvalidField).toBe('insurance');
    details.setInsurance('MEDICARE');
    expect(form.fields).toContain('medicareNumber');
    expect(form.firstInvalidField).toBe('medicareNumber');
    form.setValue('medicareNumber', '2123 45670 1');
    expect(form.isValid).toBe(true);
    expect(form.toPatientDetails().medicareNumber).toBe('2123456701');
    expect(form.toFormDetails()).toEqual({ insurance: { typeCode: 'MEDICARE' } });
    details.setInsurance('SELF_PAY');
    expect(form.fields).not.toContain('medicareNumber');
    expect(form.toPatientDetails().medicareNumber).toBeUndefined();
  });

  it('should show every details problem after a submit attempt', () => {
    const form = new PatientForm(false, today);
    fillPatient(form);
    const details = new FormDetailsForm({ ...CONFIG, ethnicity: { ...CONFIG.ethnicity, required: true } }, searchFake().search);
    form.attachDetails(details);
    form.touchAll();
    expect(details.visibleProblem('insurance')).toBe('required');
    expect(details.visibleProblem('ethnicity')).toBe('required');
    details.setEthnicity('NOT_STATED');
    expect(details.visibleProblem('ethnicity')).toBeNull();
  });
});
