import { describe, expect, it } from 'vitest';
import { parseRoleTranslations } from '../../../../src-web/features/patient-access/patient-access-options';
import { PatientSignInStore } from '../../../../src-web/features/patient-access/patient-sign-in-store';
import { answer, BOOKING_KEY } from './patient-access-fixtures';
import { setup } from './patient-access-setup';

describe('PatientAccessStore#ensureSignedIn (the authenticated check)', () => {
  it('should resolve true and remember the booking when signed in', async () => {
    const { access: store, session, navigator } = await setup({ server: { signedIn: true }, url: `/appointments/${BOOKING_KEY}` });
    expect(await store.ensureSignedIn(BOOKING_KEY, 'APPOINTMENT')).toBe(true);
    expect(session.isSignedInTo(BOOKING_KEY, 'APPOINTMENT')).toBe(true);
    expect(navigator.visited).toEqual([]);
  });

  it('should resolve false and send the browser to /authentication with the current URL, booking key and type', async () => {
    const { access: store, navigator } = await setup({ url: `/appointments/${BOOKING_KEY}?upload=1` });
    expect(await store.ensureSignedIn(BOOKING_KEY, 'APPOINTMENT')).toBe(false);
    expect(navigator.visited).toEqual([
      {
        to: `/authentication?returnUrl=%2Fappointments%2F${BOOKING_KEY}%3Fupload%3D1&bookingKey=${BOOKING_KEY}&type=APPOINTMENT`,
        replace: true,
      },
    ]);
  });

  it('should stay under /iframe', async () => {
    const { access: store, navigator } = await setup({ url: `/iframe/booking-requests/${BOOKING_KEY}` });
    await store.ensureSignedIn(BOOKING_KEY, 'BOOKING_REQUEST');
    expect(navigator.visited.map((visit) => visit.to)).toEqual([
      `/iframe/authentication?returnUrl=%2Fiframe%2Fbooking-requests%2F${BOOKING_KEY}&bookingKey=${BOOKING_KEY}&type=BOOKING_REQUEST`,
    ]);
  });

  it('should also go to the sign-in page when the check itself fails', async () => {
    const { access: store, navigator } = await setup({
      url: `/a/${BOOKING_KEY}`,
      server: { answers: { session: answer(503, { code: 'service_unavailable', message: 'Down' }) } },
    });
    expect(await store.ensureSignedIn(BOOKING_KEY, 'APPOINTMENT')).toBe(false);
    expect(navigator.visited).toHaveLength(1);
  });

  it('should send a signed-in patient back to sign in when a later call answers 401 (logout)', async () => {
    const { access: store, session, navigator } = await setup({ server: { signedIn: true }, url: `/appointments/${BOOKING_KEY}` });
    await store.ensureSignedIn(BOOKING_KEY, 'APPOINTMENT');
    session.logout();
    expect(session.isAuthenticated).toBe(false);
    expect(navigator.visited.map((visit) => visit.to)).toEqual([
      `/authentication?returnUrl=%2Fappointments%2F${BOOKING_KEY}&bookingKey=${BOOKING_KEY}&type=APPOINTMENT`,
    ]);
    session.logout();
    expect(navigator.visited).toHaveLength(1);
  });

  it('should create the sign-in form store once', async () => {
    const { access, store } = await setup();
    expect(access.signIn(PatientSignInStore)).toBe(store);
  });

  it('should log out on the server and here', async () => {
    const { access: store, session, server } = await setup({ server: { signedIn: true }, url: `/appointments/${BOOKING_KEY}` });
    await store.ensureSignedIn(BOOKING_KEY, 'APPOINTMENT');
    await store.logout();
    expect(session.isAuthenticated).toBe(false);
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/patient-access/logout' });
  });
});

describe('parseRoleTranslations', () => {
  it('parseRoleTranslations should take a JSON object only', () => {
    expect(parseRoleTranslations('{"a":{"b":"c"}}')).toEqual({ a: { b: 'c' } });
    expect(parseRoleTranslations('')).toBeNull();
    expect(parseRoleTranslations('[1]')).toBeNull();
    expect(parseRoleTranslations('not json')).toBeNull();
  });
});
