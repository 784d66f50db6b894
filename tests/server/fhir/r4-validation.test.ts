import { describe, expect, it } from 'vitest';
import { expectValidR4 } from './helpers/r4-validation';

// The validation helper itself: it must refuse what R4 refuses, or every "valid" below means nothing.
describe('expectValidR4', () => {
  it('accepts a valid Location', () => {
    expect(() => expectValidR4({ resourceType: 'Location', id: 'a1', status: 'active', name: 'Parramatta' })).not.toThrow();
  });

  it('refuses an element R4 does not define (Medplum)', () => {
    expect(() => expectValidR4({ resourceType: 'Location', id: 'a1', colour: 'blue' })).toThrow();
  });

  it('refuses a missing required element (Medplum)', () => {
    expect(() => expectValidR4({ resourceType: 'Slot', id: 's1', status: 'free', start: '2026-01-01T00:00:00Z' })).toThrow(/schedule|end/);
  });

  it('refuses a code outside a required binding, which Medplum lets through (the JSON schema)', () => {
    const appointment = {
      resourceType: 'Appointment',
      id: 'a1',
      status: 'booked',
      start: '2026-01-05T09:00:00Z',
      end: '2026-01-05T09:30:00Z',
      participant: [{ actor: { reference: 'Location/1' }, status: 'accepted' }],
    };
    expect(() => expectValidR4(appointment)).not.toThrow();
    expect(() => expectValidR4({ ...appointment, status: 'confirmed' })).toThrow(/JSON schema/);
  });

  it('refuses a wrong type of value', () => {
    expect(() =>
      expectValidR4({ resourceType: 'Slot', id: 's1', schedule: { reference: 'Schedule/1' }, status: 'free', start: 'soon', end: 'later' }),
    ).toThrow();
  });
});
