import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-web/api/client';
import { KioskCheckInStore } from '../../../../src-web/features/kiosk-check-in/kiosk-check-in-store';
import { fakeDeps, found, KEY, type FakeOptions } from './kiosk-fakes';

// The scanned-code path of the kiosk store (docs/rules/kiosk.md#identify-by-scanning): a booking
// code asks the date of birth for its booking, then goes on exactly like the name path.

const CODE = `https://portal.example.com/a/${KEY}\n`;

function scanned(options: FakeOptions = {}) {
  const { deps, calls } = fakeDeps(options);
  const store = new KioskCheckInStore(deps);
  store.scannedText(CODE);
  return { store, calls };
}

function typeDateOfBirth(store: KioskCheckInStore, day: string, month: string, year: string): void {
  store.setDatePart('day', day);
  store.setDatePart('month', month);
  store.setDatePart('year', year);
}

describe('KioskCheckInStore, identify by scanning', () => {
  it('a booking code asks the date of birth for its booking and forgets what the previous person typed', () => {
    const { deps } = fakeDeps();
    const store = new KioskCheckInStore(deps);
    store.setLastName('Someone');
    typeDateOfBirth(store, '1', '2', '1950');
    store.scannedText(CODE);
    expect(store.scannedBookingKey).toBe(KEY);
    expect(store.lastName).toBe('');
    expect(store.dateOfBirth).toEqual({ day: '', month: '', year: '' });
    expect(store.scanProblem).toBeNull();
  });

  it('a foreign or unreadable code says so and changes nothing else', () => {
    const { deps, calls } = fakeDeps();
    const store = new KioskCheckInStore(deps);
    store.setLastName('Lobbyton');
    for (const text of ['WIFI:S:lobby;;', 'javascript:alert(1)', `https://portal.example.com/br/${KEY}`, '']) {
      store.scannedText(text);
      expect(store.scanProblem).toBe('foreign');
      expect(store.scannedBookingKey).toBeNull();
    }
    expect(store.lastName).toBe('Lobbyton');
    store.dismissScanProblem();
    expect(store.scanProblem).toBeNull();
    expect(calls.identity).toEqual([]);
  });

  it('sends nothing without a real past date of birth', async () => {
    const { store, calls } = scanned();
    expect(await store.submitCodeIdentity()).toBe(false);
    expect(store.dateOfBirthProblem).toBe('required');
    typeDateOfBirth(store, '1', '1', '2099');
    expect(await store.submitCodeIdentity()).toBe(false);
    expect(calls.identity).toEqual([]);
  });

  it('sends the booking key and date of birth, then signs in and sends the code by SMS as the name path does', async () => {
    const { store, calls } = scanned();
    typeDateOfBirth(store, '12', '4', '1979');
    expect(await store.submitCodeIdentity()).toBe(true);
    expect(calls.identity).toEqual([{ bookingKey: KEY, dateOfBirth: '1979-04-12' }]);
    expect(calls.authenticate).toEqual([{ bookingKey: KEY, type: 'APPOINTMENT', dateOfBirth: '1979-04-12' }]);
    expect(calls.sendOtp).toEqual(['SMS']);
    expect(store.step).toBe('verify-otp');
    store.dispose();
  });

  it('a wrong date of birth says nothing was found and stays on the code screen', async () => {
    const { store, calls } = scanned({ identity: async () => found({ appointmentBookingKeys: [] }) });
    typeDateOfBirth(store, '13', '4', '1979');
    expect(await store.submitCodeIdentity()).toBe(false);
    expect(store.identityProblem).toEqual({ kind: 'notFound' });
    expect(store.scannedBookingKey).toBe(KEY);
    expect(calls.authenticate).toEqual([]);
  });

  it("shows the server's words when the limit is reached", async () => {
    const tooMany = new ApiError('http', 429, 'too_many_requests', 'Too many look-ups for these details. Please ask at the front desk.');
    const { store } = scanned({
      identity: async () => {
        throw tooMany;
      },
    });
    typeDateOfBirth(store, '12', '4', '1979');
    expect(await store.submitCodeIdentity()).toBe(false);
    expect(store.identityProblem).toEqual({ kind: 'tooMany', message: tooMany.message });
  });

  it('"Start again" forgets the code and the date of birth', () => {
    const { store } = scanned();
    typeDateOfBirth(store, '12', '4', '1979');
    store.forgetScannedCode();
    expect(store.scannedBookingKey).toBeNull();
    expect(store.dateOfBirth).toEqual({ day: '', month: '', year: '' });
  });
});
