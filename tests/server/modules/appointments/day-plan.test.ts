import { describe, expect, it } from 'vitest';
import { DayPlanSchema } from '@contract/api/day-plan';
import { buildDayPlan, type DayPlanClinicSource, type DayPlanExam } from '../../../../src-server/modules/appointments/day-plan';
import { dayPlanLines } from '../../../../src-server/modules/appointments/public';

// The day plan's rules with plain values (docs/rules/day-plan.md): which steps, at what instants,
// in what order, merged across two exams, marked past against the injected `now`, and worded as
// the clinic's local times for a reminder.

const SYDNEY: DayPlanClinicSource = {
  name: 'Parramatta',
  street: 'Level 2, 118 Macquarie Street',
  suburb: 'Parramatta',
  state: 'NSW',
  postcode: '2150',
  timeZone: 'Australia/Sydney',
  parking: '  Paid parking under the building.  ',
  arrivalMinutes: 15,
};
const BRISBANE: DayPlanClinicSource = { ...SYDNEY, name: 'Coolangatta', timeZone: 'Australia/Brisbane', parking: '' };

/** 11:45 in Sydney on 18 March 2026 (AEDT, UTC+11); 10:45 in Brisbane (AEST, UTC+10, no summer time). */
const START = new Date('2026-03-18T00:45:00Z');
const LONG_BEFORE = new Date('2026-03-10T00:00:00Z');

function exam(overrides: Partial<DayPlanExam>): DayPlanExam {
  return {
    examName: 'Ultrasound pelvis',
    startsAt: START,
    fastingHours: null,
    drink: null,
    medicationStop: null,
    arrivalMinutes: null,
    ...overrides,
  };
}

const PELVIS = exam({ drink: { amount: '1 litre of water', fromMinutes: 60, untilMinutes: 30 } });
const CT = exam({ examName: 'CT abdomen and pelvis with contrast', fastingHours: 4, arrivalMinutes: 60 });

const plan = (exams: DayPlanExam[], now = LONG_BEFORE, clinic = SYDNEY) => buildDayPlan({ exams, clinic, missing: [] }, now);
const summary = (exams: DayPlanExam[], now = LONG_BEFORE) => plan(exams, now).steps.map((step) => [step.kind, step.at, step.past]);

describe('the day plan', () => {
  it('times a drink window and the arrival by the clinic’s lead: drink 10:45 to 11:15, arrive 11:30 for 11:45', () => {
    const built = plan([PELVIS]);
    expect(DayPlanSchema.parse(built)).toEqual(built);
    expect(built.steps).toEqual([
      {
        kind: 'DRINK',
        at: '2026-03-17T23:45:00.000Z',
        until: '2026-03-18T00:15:00.000Z',
        amount: '1 litre of water',
        examName: 'Ultrasound pelvis',
        past: false,
      },
      { kind: 'ARRIVE', at: '2026-03-18T00:30:00.000Z', past: false },
      { kind: 'EXAM', at: START.toISOString(), examName: 'Ultrasound pelvis', past: false },
    ]);
    expect(dayPlanLines(built, 'en-AU').slice(0, 3)).toEqual([
      '10:45 am to 11:15 am: drink 1 litre of water',
      '11:30 am: arrive at the clinic and check in',
      '11:45 am: your Ultrasound pelvis',
    ]);
  });

  it('fasts from hours before and takes the exam’s own, longer lead over the clinic’s', () => {
    expect(summary([CT])).toEqual([
      ['STOP_EATING', '2026-03-17T20:45:00.000Z', false],
      ['ARRIVE', '2026-03-17T23:45:00.000Z', false],
      ['EXAM', START.toISOString(), false],
    ]);
    expect(dayPlanLines(plan([CT]), 'en-AU')[0]).toBe('7:45 am: stop eating; water is fine unless we told you otherwise');
  });

  it('merges two exams: the earliest fasting start, one arrival, each exam and its drink in time order', () => {
    const later = { ...PELVIS, startsAt: new Date(START.getTime() + 45 * 60_000) };
    const ultrasoundFasting = exam({ examName: 'Ultrasound abdomen', fastingHours: 6, startsAt: new Date(START.getTime() + 90 * 60_000) });
    const built = plan([later, ultrasoundFasting, CT]);
    expect(built.steps.map((step) => step.kind)).toEqual(['STOP_EATING', 'ARRIVE', 'DRINK', 'EXAM', 'EXAM', 'EXAM']);
    // Ultrasound abdomen at 13:15 fasts 6 hours: from 07:15, earlier than the CT's 07:45.
    expect(built.steps[0]).toEqual({ kind: 'STOP_EATING', at: '2026-03-17T20:15:00.000Z', fastingHours: 6, past: false });
    // One arrival: the CT's hour before 11:45, the earliest any exam asks for.
    expect(built.steps.filter((step) => step.kind === 'ARRIVE')).toEqual([{ kind: 'ARRIVE', at: '2026-03-17T23:45:00.000Z', past: false }]);
    expect(dayPlanLines(built, 'en-AU').slice(0, 6)).toEqual([
      '7:15 am: stop eating; water is fine unless we told you otherwise',
      '10:45 am: arrive at the clinic and check in',
      '11:30 am to 12:00 pm: drink 1 litre of water',
      '11:45 am: your CT abdomen and pelvis with contrast',
      '12:30 pm: your Ultrasound pelvis',
      '1:15 pm: your Ultrasound abdomen',
    ]);
  });

  it('words the same instants in the clinic’s own zone, and names the weekday of a stop days before', () => {
    const angiogram = exam({ examName: 'CT coronary angiogram', medicationStop: { medicine: 'sildenafil', hours: 48 } });
    const built = plan([angiogram], LONG_BEFORE, BRISBANE);
    expect(built.timeZone).toBe('Australia/Brisbane');
    expect(built.steps[0]).toMatchObject({ kind: 'STOP_MEDICATION', at: '2026-03-16T00:45:00.000Z', medicine: 'sildenafil' });
    expect(dayPlanLines(built, 'en-AU')).toEqual([
      'Monday 10:45 am: stop taking sildenafil (for your CT coronary angiogram)',
      '10:30 am: arrive at the clinic and check in',
      '10:45 am: your CT coronary angiogram',
      `Address: Coolangatta, Level 2, 118 Macquarie Street, Parramatta NSW 2150 (map: ${built.clinic.mapUrl})`,
    ]);
    // Sydney is an hour ahead in March: the same plan reads an hour later there.
    expect(dayPlanLines(plan([angiogram]), 'en-AU')[2]).toBe('11:45 am: your CT coronary angiogram');
  });

  it('marks steps past at `now`: a drink window only once it has ended', () => {
    const during = new Date('2026-03-18T00:00:00Z'); // 11:00 in Sydney, inside 10:45 to 11:15
    expect(summary([PELVIS, CT], during)).toEqual([
      ['STOP_EATING', '2026-03-17T20:45:00.000Z', true],
      // At one instant the drink comes before the arrival (KIND_ORDER); the window is still open.
      ['DRINK', '2026-03-17T23:45:00.000Z', false],
      ['ARRIVE', '2026-03-17T23:45:00.000Z', true],
      ['EXAM', START.toISOString(), false],
      ['EXAM', START.toISOString(), false],
    ]);
    expect(summary([PELVIS], new Date('2026-03-18T00:15:00Z'))[0]).toEqual(['DRINK', '2026-03-17T23:45:00.000Z', true]);
  });

  it('gives the address with an OpenStreetMap search, the parking trimmed or null, and no steps without a coming exam', () => {
    const built = buildDayPlan({ exams: [], clinic: BRISBANE, missing: [{ kind: 'CONSENT_FORMS', count: 2 }] }, LONG_BEFORE);
    expect(built.steps).toEqual([]);
    expect(built.missing).toEqual([{ kind: 'CONSENT_FORMS', count: 2 }]);
    expect(built.clinic).toEqual({
      name: 'Coolangatta',
      address: 'Level 2, 118 Macquarie Street, Parramatta NSW 2150',
      mapUrl: 'https://www.openstreetmap.org/search?query=Level%202%2C%20118%20Macquarie%20Street%2C%20Parramatta%20NSW%202150',
      parking: null,
    });
    expect(plan([PELVIS]).clinic.parking).toBe('Paid parking under the building.');
    expect(dayPlanLines(built, 'en-AU')).toEqual([]);
  });

  it('words what is still missing and the parking for a reminder', () => {
    const built = buildDayPlan(
      {
        exams: [PELVIS],
        clinic: SYDNEY,
        missing: [
          { kind: 'CONSENT_FORMS', count: 1 },
          { kind: 'REFERRAL', documentTypeId: null },
          { kind: 'BRING_DOCUMENT', title: 'Your implant card', description: '' },
        ],
      },
      LONG_BEFORE,
    );
    expect(dayPlanLines(built, 'en-AU').slice(3)).toEqual([
      'Still to do: sign your consent form on the appointment page',
      'Still to do: upload your referral on the appointment page, or bring it',
      'Still to do: bring Your implant card',
      `Address: Parramatta, Level 2, 118 Macquarie Street, Parramatta NSW 2150 (map: ${built.clinic.mapUrl})`,
      'Parking: Paid parking under the building.',
    ]);
  });
});
