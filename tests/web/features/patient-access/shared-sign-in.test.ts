import { describe, expect, it } from 'vitest';
import { readAuthenticationParams } from '../../../../src-web/features/patient-access/authentication-params';
import { answer, CODE, DATE_OF_BIRTH, SHARE_TOKEN } from './patient-access-fixtures';
import { params, setup } from './patient-access-setup';

/** A contact opening a share link: /authentication?shared=true&returnUrl=/results/shared with the kept token. */
const shareLink = (overrides = {}) =>
  params({ bookingKey: null, type: 'APPOINTMENT', returnUrl: '/results/shared', shared: true, shareToken: SHARE_TOKEN, ...overrides });

describe('PatientSignInStore: a contact signs in with a share link', () => {
  it('should post the token and the date of birth to /api/patient-access/shared, never a contact number, then ask for the code', async () => {
    const { store, fake, session } = await setup({ url: '/authentication?shared=true&returnUrl=%2Fresults%2Fshared' });
    await store.start(shareLink());
    // No booking to check a session for: the form shows at once.
    expect(fake.sessionQueries).toEqual([]);
    expect(store.step).toBe('details');
    expect(store.missingBooking).toBe(false);
    expect(store.shareLink).toBe(true);
    store.setDateOfBirth(DATE_OF_BIRTH);
    // The field is not shown for a share link: whatever it holds is neither checked nor sent.
    store.setContactNumber('not a number');
    expect(store.detailsValid).toBe(true);

    expect(await store.submitDetails()).toBe(true);

    expect(fake.bodies.slice(0, 2)).toEqual([
      { path: 'shared', body: { shareToken: SHARE_TOKEN, dateOfBirth: DATE_OF_BIRTH } },
      { path: 'otp', body: { channel: 'EMAIL' } },
    ]);
    expect(store.step).toBe('code');
    expect(store.destination).toBe('l***@example.com');
    expect(session.isAuthenticated).toBe(false);
  });

  it('should go back to the shared results with shared=true once the code is right, without taking the booking as its own', async () => {
    const { store, navigator, session } = await setup();
    await store.start(shareLink());
    store.setDateOfBirth(DATE_OF_BIRTH);
    await store.submitDetails();
    store.setCode(CODE);

    expect(await store.verifyOtp()).toBe(true);

    expect(navigator.visited).toEqual([{ to: '/results/shared?shared=true', replace: true }]);
    expect(session.isAuthenticated).toBe(true);
    // The verify answer names the patient's booking; the contact's browser must not become its subject.
    expect(session.bookingKey).toBeNull();
  });

  it('should keep the form with the authentication error on a wrong date of birth', async () => {
    const { store, navigator } = await setup();
    await store.start(shareLink());
    store.setDateOfBirth('1991-03-15');
    expect(await store.submitDetails()).toBe(false);
    expect(store.error).toEqual({ kind: 'authentication' });
    expect(store.step).toBe('details');
    expect(navigator.visited).toEqual([]);
  });

  it('should go to /deny with max_attempts_reached_shared when the server says so', async () => {
    const { store, navigator } = await setup({ server: { maxFailures: 0 } });
    await store.start(shareLink());
    store.setDateOfBirth(DATE_OF_BIRTH);
    await store.submitDetails();
    expect(navigator.visited).toEqual([{ to: '/deny?maxAttempts=max_attempts_reached_shared', replace: true }]);
  });

  it.each([
    ['share_revoked', '/deny?revoked=true'],
    ['share_expired', '/deny?resultsExpired=true'],
  ])('should go to /deny when the sign-in answers 410 %s', async (code, target) => {
    const { store, navigator } = await setup({ server: { answers: { shared: answer(410, { code, message: 'gone' }) } } });
    await store.start(shareLink());
    store.setDateOfBirth(DATE_OF_BIRTH);
    expect(await store.submitDetails()).toBe(false);
    expect(navigator.visited).toEqual([{ to: target, replace: true }]);
    expect(store.loading).toBe(false);
  });

  it('should stay inside /iframe for /deny', async () => {
    const { store, navigator } = await setup({
      url: '/iframe/authentication?shared=true',
      server: { answers: { shared: answer(410, { code: 'share_revoked', message: 'gone' }) } },
    });
    await store.start(shareLink({ returnUrl: '/iframe/results/shared' }));
    store.setDateOfBirth(DATE_OF_BIRTH);
    await store.submitDetails();
    expect(navigator.visited.map((visit) => visit.to)).toEqual(['/iframe/deny?revoked=true']);
  });

  it('should say the link is incomplete when the page kept no token', async () => {
    const { store, fake } = await setup();
    await store.start(shareLink({ shareToken: null }));
    expect(store.missingBooking).toBe(true);
    expect(await store.submitDetails()).toBe(false);
    expect(fake.bodies).toEqual([]);
  });
});

describe('readAuthenticationParams: the share link token', () => {
  const read = (query: string, embedded = false, token: string | null = SHARE_TOKEN) =>
    readAuthenticationParams(new URLSearchParams(query), embedded, token);

  it('should take the kept token for shared=true back to /results/shared, top level or embedded', () => {
    expect(read('shared=true&returnUrl=%2Fresults%2Fshared')).toMatchObject({
      bookingKey: null,
      shared: true,
      returnUrl: '/results/shared',
      shareToken: SHARE_TOKEN,
    });
    expect(read('shared=true&returnUrl=%2Fresults%2Fshared', true)).toMatchObject({
      returnUrl: '/iframe/results/shared',
      shareToken: SHARE_TOKEN,
    });
  });

  it('should ignore the token without shared=true, for another return URL, or when a booking is named', () => {
    expect(read('returnUrl=%2Fresults%2Fshared').shareToken).toBeUndefined();
    expect(read('shared=true&returnUrl=%2Fabout').shareToken).toBeUndefined();
    expect(read('shared=true&returnUrl=%2Fresults%2Fshared&bookingKey=DQZGrZ3wpC5qCgHhYxQeMw').shareToken).toBeUndefined();
    expect(read('shared=true&returnUrl=%2Fresults%2Fshared', false, null).shareToken).toBeUndefined();
  });
});
