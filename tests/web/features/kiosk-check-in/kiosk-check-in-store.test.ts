import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../src-web/api/client';
import { KioskCheckInStore } from '../../../../src-web/features/kiosk-check-in/kiosk-check-in-store';
import { outcomeOf } from '../../../../src-web/features/kiosk-check-in/kiosk-check-in-run';
import { dateFromParts, dateOfBirthProblem } from '../../../../src-web/features/kiosk-check-in/kiosk-identity';
import { statusFixture } from '../check-in/check-in-fixtures';
import { fakeDeps, found, KEY, notEnrolled, type FakeOptions } from './kiosk-fakes';

function storeWith(options: FakeOptions = {}) {
  const { deps, calls } = fakeDeps(options);
  const store = new KioskCheckInStore(deps);
  store.setLastName(' Lobbyton ');
  store.setDatePart('day', '12');
  store.setDatePart('month', '4');
  store.setDatePart('year', '1979');
  return { store, calls };
}

const checkedIn = (slug: string) => statusFixture({ appointmentSlug: slug, state: 'CHECKED_IN', checkInSent: true, checkInSuccess: true });

describe('KioskCheckInStore#submitIdentity', () => {
  it('sends nothing while the last name is empty or the date of birth is not a real past date', async () => {
    const { store, calls } = storeWith();
    store.setLastName('  ');
    expect(await store.submitIdentity()).toBe(false);
    expect(store.lastNameMissing).toBe(true);
    store.setLastName('Lobbyton');
    store.setDatePart('day', '31');
    store.setDatePart('month', '02');
    expect(store.dateOfBirthProblem).toBe('invalid');
    expect(await store.submitIdentity()).toBe(false);
    store.setDatePart('day', '1');
    store.setDatePart('year', '2099');
    expect(store.dateOfBirthProblem).toBe('future');
    expect(await store.submitIdentity()).toBe(false);
    expect(calls.identity).toEqual([]);
  });

  it('keeps only digits in the date fields and builds YYYY-MM-DD', () => {
    const { store } = storeWith();
    store.setDatePart('day', '1a2b3');
    expect(store.dateOfBirth.day).toBe('12');
    expect(dateFromParts({ day: '5', month: '7', year: '1980' })).toBe('1980-07-05');
    expect(dateFromParts({ day: '5', month: '7', year: '80' })).toBeNull();
    expect(dateOfBirthProblem({ day: '', month: '', year: '' }, '2026-01-01')).toBe('required');
  });

  it('with one booking signs in by date of birth for it (APPOINTMENT), sends the code by SMS where offered and moves to verify-otp', async () => {
    const { store, calls } = storeWith();
    expect(await store.submitIdentity()).toBe(true);
    expect(calls.identity).toEqual([{ lastName: 'Lobbyton', dateOfBirth: '1979-04-12' }]);
    expect(calls.authenticate).toEqual([{ bookingKey: KEY, type: 'APPOINTMENT', dateOfBirth: '1979-04-12' }]);
    expect(calls.sendOtp).toEqual(['SMS']);
    expect(store.step).toBe('verify-otp');
    expect(store.bookingKey).toBe(KEY);
    expect(store.resendSeconds).toBe(5);
    store.dispose();
  });

  it('sends the code by e-mail when SMS is not offered', async () => {
    const { store, calls } = storeWith({ otpChannels: ['EMAIL'] });
    expect(await store.submitIdentity()).toBe(true);
    expect(calls.sendOtp).toEqual(['EMAIL']);
    store.dispose();
  });

  it('says nothing was found for no booking, and stays', async () => {
    const { store, calls } = storeWith({ identity: async () => found({ appointmentBookingKeys: [] }) });
    expect(await store.submitIdentity()).toBe(false);
    expect(store.identityProblem).toEqual({ kind: 'notFound' });
    expect(store.step).toBeNull();
    expect(calls.authenticate).toEqual([]);
  });

  it.each([
    [found({ appointmentBookingKeys: [KEY, 'other-key-0000000000000'] }), 'multiple'],
    [found({ samePatient: false }), 'notSamePatient'],
  ])('goes to the error step for more than one booking or person', async (answer, reason) => {
    const { store, calls } = storeWith({ identity: async () => answer });
    expect(await store.submitIdentity()).toBe(true);
    expect(store.step).toBe('error');
    expect(store.errorReason).toBe(reason);
    expect(calls.authenticate).toEqual([]);
  });

  it.each(['ALREADY_CHECKED_IN', 'NOT_YET_OPEN', 'CHECK_IN_DISABLED'] as const)(
    'shows the disabled reason %s and sends no code',
    async (reason) => {
      const { store, calls } = storeWith({ identity: async () => found({ disabledReason: reason }) });
      expect(await store.submitIdentity()).toBe(false);
      expect(store.identityProblem).toEqual({ kind: 'disabled', reason });
      expect(calls.sendOtp).toEqual([]);
    },
  );

  it("shows the server's message on 429 and reports a revoked kiosk", async () => {
    const limited = storeWith({
      identity: async () => {
        throw new ApiError('http', 429, 'too_many_requests', 'Too many look-ups at this kiosk. Please ask at the front desk.');
      },
    });
    await limited.store.submitIdentity();
    expect(limited.store.identityProblem).toEqual({
      kind: 'tooMany',
      message: 'Too many look-ups at this kiosk. Please ask at the front desk.',
    });

    const revoked = storeWith({
      identity: async () => {
        throw notEnrolled();
      },
    });
    await revoked.store.submitIdentity();
    expect(revoked.calls.revoked).toBe(1);
    expect(revoked.store.identityProblem).toBeNull();
  });
});

describe('KioskCheckInStore#verifyCode', () => {
  it('refuses a code that is not 6 digits, says a wrong code is wrong, and goes on to confirm with today only', async () => {
    let accept = false;
    const { store, calls } = storeWith({
      verify: async () => {
        if (!accept) throw new ApiError('http', 401, 'otp_invalid', 'wrong');
      },
    });
    await store.submitIdentity();
    store.setCode('12 34');
    await store.verifyCode();
    expect(store.otpProblem).toBe('format');
    expect(calls.verifyOtp).toEqual([]);
    store.setCode('123456');
    await store.verifyCode();
    expect(store.otpProblem).toBe('wrong');
    expect(store.code).toBe('');
    accept = true;
    store.setCode('654321');
    await store.verifyCode();
    expect(store.step).toBe('confirm');
    expect(store.appointmentsToday.map((item) => item.slug)).toEqual(['a1']);
  });
});

describe('KioskCheckInStore feedback step', () => {
  it('with giveFeedback asks the unanswered FEEDBACK questionnaire first, then goes on to confirm', async () => {
    const { store } = storeWith({ giveFeedback: true, identity: async () => found({ feedbackQuestionnaireAnswered: false }) });
    await store.submitIdentity();
    store.setCode('654321');
    await store.verifyCode();
    expect(store.step).toBe('feedback');
    await store.feedbackDone();
    expect(store.step).toBe('confirm');
    expect(store.appointmentsToday.map((item) => item.slug)).toEqual(['a1']);
  });

  it.each([
    ['giveFeedback is off', false, false],
    ['the feedback is answered already', true, true],
  ])('skips the feedback step when %s', async (_case, giveFeedback, answered) => {
    const { store } = storeWith({ giveFeedback, identity: async () => found({ feedbackQuestionnaireAnswered: answered }) });
    await store.submitIdentity();
    store.setCode('654321');
    await store.verifyCode();
    expect(store.step).toBe('confirm');
  });
});

describe('KioskCheckInStore#confirm', () => {
  async function atConfirm(options: FakeOptions) {
    const made = storeWith({ otpRequired: false, ...options });
    await made.store.submitIdentity();
    expect(made.store.step).toBe('confirm');
    return made;
  }

  it('goes to success when the check-in is done at once', async () => {
    const { store, calls } = await atConfirm({ checkIn: async (slug) => checkedIn(slug) });
    await store.confirm();
    expect(calls.checkIn).toEqual([`${KEY}/a1`]);
    expect(store.step).toBe('success');
  });

  it('polls a check-in that was sent until it is checked in (complete)', async () => {
    const { store, calls } = await atConfirm({
      polls: [statusFixture({ appointmentSlug: 'a1', state: 'CHECKING_IN', checkInSent: true }), checkedIn('a1')],
    });
    await store.confirm();
    expect(store.step).toBe('processing');
    await vi.waitFor(() => expect(store.step).toBe('complete'));
    expect(calls.status).toEqual(['a1', 'a1']);
  });

  it('goes to the error step when the hand-off fails or a poll fails', async () => {
    const failed = await atConfirm({ polls: [statusFixture({ appointmentSlug: 'a1', state: 'FAILED' })] });
    await failed.store.confirm();
    await vi.waitFor(() => expect(failed.store.step).toBe('error'));
    expect(failed.store.errorReason).toBe('checkIn');

    const lost = await atConfirm({ polls: [] });
    await lost.store.confirm();
    await vi.waitFor(() => expect(lost.store.step).toBe('error'));
  });

  it("shows the server's refusal, and reports a revoked kiosk instead of an error", async () => {
    const refused = await atConfirm({
      checkIn: async () => {
        throw new ApiError('http', 409, 'check_in_window_closed', 'Check-in opens 120 minutes before your appointment.');
      },
    });
    await refused.store.confirm();
    expect(refused.store.step).toBe('error');
    expect(refused.store.errorDetail).toBe('Check-in opens 120 minutes before your appointment.');

    const revoked = await atConfirm({
      checkIn: async () => {
        throw notEnrolled();
      },
    });
    await revoked.store.confirm();
    expect(revoked.calls.revoked).toBe(1);
    expect(revoked.store.step).toBe('confirm');
  });

  it('reads one outcome from several statuses', () => {
    expect(outcomeOf([])).toBe('failed');
    expect(outcomeOf([checkedIn('a'), checkedIn('b')])).toBe('success');
    expect(outcomeOf([checkedIn('a'), statusFixture({ state: 'CHECKING_IN' })])).toBe('sent');
    expect(outcomeOf([statusFixture({ state: 'NOT_STARTED' })])).toBe('failed');
  });
});
