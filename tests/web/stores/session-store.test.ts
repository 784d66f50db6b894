import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../../src-web/stores/session-store';
import { recordingNavigator } from '../features/patient-access/patient-access-setup';

const KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
const OTHER = 'RTZZ7AsePVS1c6abT-l4BA';

describe('SessionStore (authentication state)', () => {
  it('should remember which booking the session opens, and only that one', () => {
    const session = new SessionStore(() => recordingNavigator('/'));
    session.markAuthenticated({ bookingKey: KEY, type: 'APPOINTMENT', roleTranslations: '{}' });
    expect(session.isSignedInTo(KEY, 'APPOINTMENT')).toBe(true);
    expect(session.isSignedInTo(KEY, 'BOOKING_REQUEST')).toBe(false);
    expect(session.isSignedInTo(OTHER, 'APPOINTMENT')).toBe(false);
    expect(session.roleTranslations).toBe('{}');
  });

  it('should stop counting as signed in when a page asks about another booking', () => {
    const session = new SessionStore(() => recordingNavigator('/'));
    session.markAuthenticated({ bookingKey: KEY, type: 'APPOINTMENT' });
    session.setSubject(KEY, 'APPOINTMENT');
    expect(session.isAuthenticated).toBe(true);
    session.setSubject(OTHER, 'APPOINTMENT');
    expect(session.isAuthenticated).toBe(false);
    expect(session.bookingKey).toBe(OTHER);
  });

  it('should clear loading when authenticated and forget everything on logout without a booking', () => {
    const navigator = recordingNavigator('/about');
    const session = new SessionStore(() => navigator);
    session.setLoading(true);
    session.setOtpSent(true);
    session.markAuthenticated();
    expect(session.loading).toBe(false);
    session.logout();
    expect(session.isAuthenticated).toBe(false);
    expect(session.otpSent).toBe(false);
    expect(navigator.visited).toEqual([]);
  });

  it('should forget without navigating (explicit logout)', () => {
    const navigator = recordingNavigator(`/appointments/${KEY}`);
    const session = new SessionStore(() => navigator);
    session.markAuthenticated({ bookingKey: KEY, type: 'APPOINTMENT', roleTranslations: '{"a":"b"}' });
    session.forget();
    expect(session.isAuthenticated).toBe(false);
    expect(session.roleTranslations).toBe('');
    expect(navigator.visited).toEqual([]);
  });

  it('should re-authenticate once, replacing the page, and never from the sign-in page itself', () => {
    const navigator = recordingNavigator(`/br/${KEY}`);
    const session = new SessionStore(() => navigator);
    session.setSubject(KEY, 'BOOKING_REQUEST');
    session.reauthenticate();
    expect(navigator.visited).toEqual([
      { to: `/authentication?returnUrl=%2Fbr%2F${KEY}&bookingKey=${KEY}&type=BOOKING_REQUEST`, replace: true },
    ]);
    session.reauthenticate();
    expect(navigator.visited).toHaveLength(1);
  });

  it("should pass the patient portal link's date of birth and code channel on to sign-in, and nothing of the kind for other types", () => {
    const portal = recordingNavigator(`/iframe/appointments/${KEY}/result/patient?dateOfBirth=1991-03-14&otpType=SMS`);
    const session = new SessionStore(() => portal);
    session.setSubject(KEY, 'PATIENT_PORTAL');
    session.reauthenticate();
    const returnUrl = encodeURIComponent(`/iframe/appointments/${KEY}/result/patient?dateOfBirth=1991-03-14&otpType=SMS`);
    expect(portal.visited).toEqual([
      {
        to: `/iframe/authentication?returnUrl=${returnUrl}&bookingKey=${KEY}&type=PATIENT_PORTAL&dateOfBirth=1991-03-14&otpType=SMS`,
        replace: true,
      },
    ]);

    const results = recordingNavigator(`/appointments/${KEY}/result?dateOfBirth=1991-03-14`);
    const other = new SessionStore(() => results);
    other.setSubject(KEY, 'APPOINTMENT_RESULTS');
    other.reauthenticate();
    expect(results.visited[0]?.to).toBe(
      `/authentication?returnUrl=${encodeURIComponent(`/appointments/${KEY}/result?dateOfBirth=1991-03-14`)}&bookingKey=${KEY}&type=APPOINTMENT_RESULTS`,
    );
  });
});
