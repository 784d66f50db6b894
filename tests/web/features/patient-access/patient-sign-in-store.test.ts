import { describe, expect, it } from 'vitest';
import {
  isCalendarDate,
  maxAttemptsName,
  retryAfterSeconds,
  withSharedFlag,
} from '../../../../src-web/features/patient-access/patient-sign-in-store';
import { answer, BOOKING_KEY, CODE, DATE_OF_BIRTH } from './patient-access-fixtures';
import { params, setup, type Setup } from './patient-access-setup';

describe('PatientSignInStore: validation', () => {
  it('should require a real date of birth that is not in the future', async () => {
    const { store } = await setup();
    await store.start(params());
    expect(store.problem('dateOfBirth')).toBe('required');
    store.setDateOfBirth('1991-02-30');
    expect(store.problem('dateOfBirth')).toBe('invalid');
    store.setDateOfBirth('14/03/1991');
    expect(store.problem('dateOfBirth')).toBe('invalid');
    store.setDateOfBirth('2026-11-24');
    expect(store.problem('dateOfBirth')).toBe('future');
    store.setDateOfBirth('2026-11-23');
    expect(store.problem('dateOfBirth')).toBeNull();
    store.setDateOfBirth(DATE_OF_BIRTH);
    expect(store.problem('dateOfBirth')).toBeNull();
  });

  it('should take an empty contact number or up to 10 digits, nothing else', async () => {
    const { store } = await setup();
    await store.start(params());
    for (const ok of ['', '0', '0491570006']) {
      store.setContactNumber(ok);
      expect(store.problem('contactNumber')).toBeNull();
    }
    for (const bad of ['04915700061', '0491 570 006', '+61491570006', 'abc', '-1']) {
      store.setContactNumber(bad);
      expect(store.problem('contactNumber')).toBe('invalid');
    }
  });

  it('should need exactly six digits for the code, ignoring spaces of a pasted code', async () => {
    const { store } = await setup();
    await store.start(params());
    expect(store.problem('code')).toBe('required');
    for (const bad of ['12345', '1234567', '12a456', '１２３４５６']) {
      store.setCode(bad);
      expect(store.problem('code')).toBe('invalid');
    }
    store.setCode('482 913');
    expect(store.code).toBe('482913');
    expect(store.problem('code')).toBeNull();
  });

  it('should show a problem only after the field was left or a submit was tried', async () => {
    const { store } = await setup();
    await store.start(params());
    expect(store.visibleProblem('dateOfBirth')).toBeNull();
    store.touch('dateOfBirth');
    expect(store.visibleProblem('dateOfBirth')).toBe('required');
  });

  it('should send nothing unless both fields are valid, and name the first problem', async () => {
    const { store, fake } = await setup();
    await store.start(params());
    expect(await store.submitDetails()).toBe(false);
    expect(store.firstInvalidDetail).toBe('dateOfBirth');
    store.setDateOfBirth(DATE_OF_BIRTH);
    store.setContactNumber('12345678901');
    expect(await store.submitDetails()).toBe(false);
    expect(store.firstInvalidDetail).toBe('contactNumber');
    expect(store.visibleProblem('contactNumber')).toBe('invalid');
    expect(fake.bodies).toEqual([]);
  });

  it('should start with the date of birth from the link', async () => {
    const { store } = await setup();
    await store.start(params({ dateOfBirth: DATE_OF_BIRTH }));
    expect(store.dateOfBirth).toBe(DATE_OF_BIRTH);
  });

  it('isCalendarDate should accept real dates from 1900 only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('1899-12-31')).toBe(false);
    expect(isCalendarDate('2024-13-01')).toBe(false);
  });
});

describe('PatientSignInStore: date of birth without a code', () => {
  it('should sign in, go to the return URL (replacing the sign-in page) and scroll to the top', async () => {
    const overlay = JSON.stringify({ authentication: { title: 'Staff view' } });
    const { store, fake, navigator, session, overlays, scrolled } = await setup({
      server: { otpRequired: false, roleTranslations: overlay },
    });
    await store.start(params());
    expect(store.step).toBe('details');
    store.setDateOfBirth(DATE_OF_BIRTH);
    store.setContactNumber('0491570006');

    expect(await store.submitDetails()).toBe(true);

    expect(fake.bodies).toEqual([
      {
        path: 'authenticate',
        body: { bookingKey: BOOKING_KEY, type: 'APPOINTMENT', dateOfBirth: DATE_OF_BIRTH, contactNumber: '0491570006' },
      },
    ]);
    expect(navigator.visited).toEqual([{ to: `/appointments/${BOOKING_KEY}`, replace: true }]);
    expect(scrolled()).toBe(1);
    expect(session.isSignedInTo(BOOKING_KEY, 'APPOINTMENT')).toBe(true);
    expect(session.loading).toBe(false);
    expect(store.step).toBe('done');
    expect(overlays[0]).toEqual({ authentication: { title: 'Staff view' } });
  });

  it('should send shared=true and add shared=true to the return URL for shared results', async () => {
    const { store, fake, navigator } = await setup({ server: { otpRequired: false } });
    await store.start(params({ shared: true, returnUrl: `/appointments/${BOOKING_KEY}/result?x=1` }));
    store.setDateOfBirth(DATE_OF_BIRTH);
    await store.submitDetails();
    expect(fake.bodies[0]?.body).toMatchObject({ shared: true });
    expect(navigator.visited.map((visit) => visit.to)).toEqual([`/appointments/${BOOKING_KEY}/result?x=1&shared=true`]);
  });

  it('should say cookies are blocked when the session did not stick (the check answers 401)', async () => {
    const { store, navigator, session } = await setup({ server: { otpRequired: false, dropCookie: true } });
    await store.start(params());
    store.setDateOfBirth(DATE_OF_BIRTH);
    expect(await store.submitDetails()).toBe(false);
    expect(store.error).toEqual({ kind: 'cookies' });
    expect(navigator.visited).toEqual([]);
    expect(session.isAuthenticated).toBe(false);
  });

  it('should not send anything when the browser has cookies off', async () => {
    const { store, fake } = await setup({ cookies: false });
    await store.start(params());
    expect(store.cookiesEnabled).toBe(false);
    store.setDateOfBirth(DATE_OF_BIRTH);
    expect(await store.submitDetails()).toBe(false);
    expect(store.error).toEqual({ kind: 'cookies' });
    expect(fake.bodies).toEqual([]);
  });

  it('should go straight on when this browser is already signed in to the booking', async () => {
    const { store, navigator, fake } = await setup({ server: { signedIn: true } });
    await store.start(params());
    expect(store.step).toBe('done');
    expect(navigator.visited).toEqual([{ to: `/appointments/${BOOKING_KEY}`, replace: true }]);
    expect(fake.sessionQueries).toEqual([`/api/patient-access/session?bookingKey=${BOOKING_KEY}&type=APPOINTMENT`]);
  });

  it('should neither call the server nor show a form when the link names no booking', async () => {
    const { store, fake } = await setup();
    await store.start(params({ bookingKey: null }));
    expect(store.missingBooking).toBe(true);
    expect(fake.sessionQueries).toEqual([]);
  });
});

describe('PatientSignInStore: failures', () => {
  it('should keep the form with the authentication error on a wrong date of birth, without logging out or navigating', async () => {
    const { store, navigator, session } = await setup();
    await store.start(params());
    store.setDateOfBirth('1991-03-15');
    expect(await store.submitDetails()).toBe(false);
    expect(store.error).toEqual({ kind: 'authentication' });
    expect(store.step).toBe('details');
    expect(session.loading).toBe(false);
    expect(navigator.visited).toEqual([]);
  });

  it('should send the patient to /deny with the named max-attempts message after too many wrong dates', async () => {
    const { store, navigator } = await setup({ server: { maxFailures: 2 } });
    await store.start(params());
    store.setDateOfBirth('1991-03-15');
    await store.submitDetails();
    await store.submitDetails();
    expect(navigator.visited).toEqual([]);
    await store.submitDetails();
    expect(navigator.visited).toEqual([{ to: '/deny?maxAttempts=max_attempts_reached', replace: true }]);
  });

  it('should stay inside /iframe when sending to /deny', async () => {
    const { store, navigator } = await setup({
      url: `/iframe/authentication?bookingKey=${BOOKING_KEY}`,
      server: {
        answers: {
          authenticate: answer(429, {
            code: 'max_attempts_reached',
            message: 'x',
            details: { maxAttempts: 'max_attempts_reached_shared' },
          }),
        },
      },
    });
    await store.start(params({ shared: true }));
    store.setDateOfBirth(DATE_OF_BIRTH);
    await store.submitDetails();
    expect(navigator.visited.map((visit) => visit.to)).toEqual(['/iframe/deny?maxAttempts=max_attempts_reached_shared']);
  });

  it("should show the server's message for other refusals and the default when the server gives none", async () => {
    const { store } = await setup({
      server: {
        answers: { authenticate: answer(400, { code: 'bad_request', message: 'dateOfBirth: Please enter a valid date of birth.' }) },
      },
    });
    await store.start(params());
    store.setDateOfBirth(DATE_OF_BIRTH);
    await store.submitDetails();
    expect(store.error).toEqual({ kind: 'server', message: 'dateOfBirth: Please enter a valid date of birth.' });

    const other = await setup({
      server: { answers: { authenticate: answer(500, { code: 'internal_error', message: 'Internal error' }) } },
    });
    await other.store.start(params());
    other.store.setDateOfBirth(DATE_OF_BIRTH);
    await other.store.submitDetails();
    expect(other.store.error).toEqual({ kind: 'authentication' });
  });

  it('should ask to wait the server’s seconds when answers come too fast from this connection, keeping the form', async () => {
    const { store, navigator, session } = await setup({
      server: {
        answers: {
          authenticate: answer(429, {
            code: 'too_many_requests',
            message: 'Please wait 7 seconds and try again.',
            details: { retryAfterSeconds: 7 },
          }),
        },
      },
    });
    await store.start(params());
    store.setDateOfBirth(DATE_OF_BIRTH);
    expect(await store.submitDetails()).toBe(false);
    expect(store.error).toEqual({ kind: 'slowDown', seconds: 7 });
    expect(store.step).toBe('details');
    expect(store.loading).toBe(false);
    expect(session.isAuthenticated).toBe(false);
    expect(navigator.visited).toEqual([]);
  });

  it('retryAfterSeconds should read whole positive seconds only', () => {
    expect(retryAfterSeconds({ retryAfterSeconds: 7 })).toBe(7);
    expect(retryAfterSeconds({ retryAfterSeconds: 2.2 })).toBe(3);
    for (const bad of [undefined, null, {}, { retryAfterSeconds: '7' }, { retryAfterSeconds: 0 }, { retryAfterSeconds: -1 }]) {
      expect(retryAfterSeconds(bad)).toBeNull();
    }
  });

  it('maxAttemptsName should pass only the names /deny knows', () => {
    expect(maxAttemptsName({ maxAttempts: 'max_attempts_reached_results' })).toBe('max_attempts_reached_results');
    expect(maxAttemptsName({ maxAttempts: '<script>' })).toBe('true');
    expect(maxAttemptsName(undefined)).toBe('true');
  });
});

describe('PatientSignInStore: one-time password', () => {
  async function atCode(options: Setup = {}, opened = params()) {
    const context = await setup(options);
    await context.store.start(opened);
    context.store.setDateOfBirth(DATE_OF_BIRTH);
    await context.store.submitDetails();
    return context;
  }

  it('should send the code on the only channel offered and wait the server’s seconds before a resend', async () => {
    const { store, fake, session, timers } = await atCode({ server: { resendAfterSeconds: 3 } });
    expect(fake.bodies.map((entry) => entry.path)).toEqual(['authenticate', 'otp']);
    expect(fake.bodies[1]?.body).toEqual({ channel: 'EMAIL' });
    expect(store.step).toBe('code');
    expect(store.destination).toBe('l***@example.com');
    expect(session.otpSent).toBe(true);
    expect(session.isAuthenticated).toBe(false);
    expect(store.resendSeconds).toBe(3);

    expect(await store.sendOtp()).toBe(false);
    expect(fake.bodies).toHaveLength(2);
    timers.tick(2);
    expect(store.resendSeconds).toBe(1);
    timers.tick();
    expect(store.resendSeconds).toBe(0);
    expect(timers.count).toBe(0);
    expect(await store.sendOtp()).toBe(true);
    expect(fake.bodies).toHaveLength(3);
  });

  it('should fall back to the configured seconds, and to 5 when the configuration is unusable', async () => {
    expect((await atCode({ server: { resendAfterSeconds: 0 }, otpResendSeconds: 8 })).store.resendSeconds).toBe(8);
    expect((await atCode({ server: { resendAfterSeconds: 0 }, otpResendSeconds: Number.NaN })).store.resendSeconds).toBe(5);
  });

  it('should let the patient choose when e-mail and SMS are both offered', async () => {
    const { store, fake } = await atCode({ server: { otpChannels: ['EMAIL', 'SMS'] } });
    expect(store.step).toBe('channel');
    expect(store.otpChannels).toEqual(['EMAIL', 'SMS']);
    expect(fake.bodies).toHaveLength(1);
    store.setChannel('SMS');
    await store.sendOtp();
    expect(fake.bodies[1]?.body).toEqual({ channel: 'SMS' });
    expect(store.destination).toBe('*******006');
  });

  it("should preselect the patient portal link's channel when it is offered, else the first", async () => {
    const portal = params({ type: 'PATIENT_PORTAL', returnUrl: `/appointments/${BOOKING_KEY}/result/patient`, otpChannel: 'SMS' });
    const both = await atCode({ server: { otpChannels: ['EMAIL', 'SMS'] } }, portal);
    expect(both.store.step).toBe('channel');
    expect(both.store.channel).toBe('SMS');
    const emailOnly = await atCode({ server: { otpChannels: ['EMAIL'] } }, portal);
    expect(emailOnly.fake.bodies[1]?.body).toEqual({ channel: 'EMAIL' });
  });

  it('should sign in to a result with its own type and come back to the result page', async () => {
    const opened = params({ type: 'APPOINTMENT_RESULTS', returnUrl: `/appointments/${BOOKING_KEY}/result` });
    const { store, fake, session, navigator } = await atCode({}, opened);
    expect(fake.bodies[0]?.body).toMatchObject({ type: 'APPOINTMENT_RESULTS' });
    expect(store.results).toBe(true);
    store.setCode(CODE);
    expect(await store.verifyOtp()).toBe(true);
    expect(session.isSignedInTo(BOOKING_KEY, 'APPOINTMENT_RESULTS')).toBe(true);
    expect(session.isSignedInTo(BOOKING_KEY, 'APPOINTMENT')).toBe(false);
    expect(navigator.visited).toEqual([{ to: `/appointments/${BOOKING_KEY}/result`, replace: true }]);
  });

  it('should say so when there is no channel to send a code on', async () => {
    const { store } = await atCode({ server: { otpChannels: [] } });
    expect(store.error).toEqual({ kind: 'noChannel' });
  });

  it('should sign in with the right code and go to the return URL', async () => {
    const { store, navigator, session, fake } = await atCode();
    store.setCode(CODE);
    expect(await store.verifyOtp()).toBe(true);
    expect(fake.bodies[2]).toEqual({ path: 'verify', body: { code: CODE } });
    expect(session.isSignedInTo(BOOKING_KEY, 'APPOINTMENT')).toBe(true);
    expect(navigator.visited).toEqual([{ to: `/appointments/${BOOKING_KEY}`, replace: true }]);
    expect(store.resendSeconds).toBe(0);
  });

  it('should not send a code that is not six digits', async () => {
    const { store, fake } = await atCode();
    store.setCode('12345');
    expect(await store.verifyOtp()).toBe(false);
    expect(store.visibleProblem('code')).toBe('invalid');
    expect(fake.bodies).toHaveLength(2);
  });

  it('should keep the code step with the OTP error and an empty field on a wrong code', async () => {
    const { store, navigator, session } = await atCode();
    store.setCode('000000');
    expect(await store.verifyOtp()).toBe(false);
    expect(store.error).toEqual({ kind: 'otp' });
    expect(store.step).toBe('code');
    expect(store.code).toBe('');
    expect(session.isAuthenticated).toBe(false);
    expect(navigator.visited).toEqual([]);
  });

  it('should say the code expired, and go to /deny with the results message after too many wrong codes', async () => {
    const expired = await atCode({ server: { answers: { verify: answer(401, { code: 'otp_expired', message: 'Expired.' }) } } });
    expired.store.setCode(CODE);
    await expired.store.verifyOtp();
    expect(expired.store.error).toEqual({ kind: 'otpExpired' });

    const locked = await atCode({
      server: {
        answers: {
          verify: answer(429, { code: 'max_attempts_reached', message: 'x', details: { maxAttempts: 'max_attempts_reached_results' } }),
        },
      },
    });
    locked.store.setCode(CODE);
    await locked.store.verifyOtp();
    expect(locked.navigator.visited.map((visit) => visit.to)).toEqual(['/deny?maxAttempts=max_attempts_reached_results']);
  });

  it('should say cookies are blocked when the code cannot be sent for want of the session', async () => {
    const { store } = await atCode({ server: { dropCookie: true } });
    expect(store.error).toEqual({ kind: 'cookies' });
    expect(store.step).toBe('details');
  });

  it('should go back to the date of birth when the session ended during the code step', async () => {
    const { store } = await atCode({ server: { answers: { verify: answer(401, { code: 'unauthorized', message: 'Please sign in.' }) } } });
    store.setCode(CODE);
    await store.verifyOtp();
    expect(store.error).toEqual({ kind: 'sessionExpired' });
    expect(store.step).toBe('details');
  });

  it('should wait again when the server refuses a resend as too early', async () => {
    const { store, timers } = await atCode({
      server: { answers: { otp: answer(429, { code: 'too_many_requests', message: 'Too many requests.' }) } },
    });
    expect(store.error).toEqual({ kind: 'tooManyRequests' });
    expect(store.step).toBe('code');
    expect(store.resendSeconds).toBe(5);
    timers.tick(5);
    expect(store.resendSeconds).toBe(0);
  });

  it('should ask for the code for a booking request when the server says otpRequired, then open the request', async () => {
    const returnUrl = `/booking-requests/${BOOKING_KEY}`;
    const { store, fake, navigator, session } = await atCode({}, params({ type: 'BOOKING_REQUEST', returnUrl }));
    expect(fake.bodies[0]?.body).toMatchObject({ type: 'BOOKING_REQUEST' });
    expect(store.step).toBe('code');
    expect(fake.bodies.map((entry) => entry.path)).toEqual(['authenticate', 'otp']);
    store.setCode(CODE);
    expect(await store.verifyOtp()).toBe(true);
    expect(session.isSignedInTo(BOOKING_KEY, 'BOOKING_REQUEST')).toBe(true);
    expect(navigator.visited.map((visit) => visit.to)).toEqual([returnUrl]);
  });

  it('should ask to wait the server’s seconds when a code is checked too soon after failures from this connection', async () => {
    const { store, navigator } = await atCode({
      server: {
        answers: {
          verify: answer(429, {
            code: 'too_many_requests',
            message: 'Please wait 12 seconds and try again.',
            details: { retryAfterSeconds: 12 },
          }),
        },
      },
    });
    store.setCode(CODE);
    expect(await store.verifyOtp()).toBe(false);
    expect(store.error).toEqual({ kind: 'slowDown', seconds: 12 });
    expect(store.step).toBe('code');
    expect(navigator.visited).toEqual([]);
  });

  it('should go back to the details and stop the countdown', async () => {
    const { store, timers } = await atCode();
    store.backToDetails();
    expect(store.step).toBe('details');
    expect(store.resendSeconds).toBe(0);
    expect(timers.count).toBe(0);
  });
});

describe('helpers', () => {
  it('withSharedFlag should add shared=true once, keeping query and hash', () => {
    expect(withSharedFlag('/appointments/k')).toBe('/appointments/k?shared=true');
    expect(withSharedFlag('/appointments/k?a=1#top')).toBe('/appointments/k?a=1&shared=true#top');
    expect(withSharedFlag('/appointments/k?shared=false')).toBe('/appointments/k?shared=true');
  });
});
