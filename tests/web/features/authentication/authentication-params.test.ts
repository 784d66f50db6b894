import { describe, expect, it } from 'vitest';
import { bookingFromUrl, readAuthenticationParams } from '../../../../src-web/features/authentication/authentication-params';

const KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
const read = (query: string, embedded = false) => readAuthenticationParams(new URLSearchParams(query), embedded);

describe('readAuthenticationParams (the /authentication query)', () => {
  it('should read every parameter', () => {
    expect(
      read(
        `returnUrl=%2Fappointments%2F${KEY}%3Fupload%3D1&bookingKey=${KEY}&type=APPOINTMENT&shared=true&staffBooking=true&dateOfBirth=1991-03-14`,
      ),
    ).toEqual({
      bookingKey: KEY,
      type: 'APPOINTMENT',
      returnUrl: `/appointments/${KEY}?upload=1`,
      shared: true,
      staffBooking: true,
      dateOfBirth: '1991-03-14',
    });
  });

  it('should take the booking key and type from the return URL when the query has none', () => {
    expect(read(`returnUrl=/booking-requests/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'BOOKING_REQUEST' });
    expect(read(`returnUrl=/br/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'BOOKING_REQUEST' });
    expect(read(`returnUrl=/a/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT' });
    expect(read(`returnUrl=/north-shore/appointments/pending/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT' });
    expect(read(`returnUrl=/iframe/appointments/${KEY}/result`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT' });
  });

  it('should make isBookingRequest=true a booking request, and map the other authentication types to an appointment', () => {
    expect(read(`bookingKey=${KEY}&isBookingRequest=true`).type).toBe('BOOKING_REQUEST');
    expect(read(`bookingKey=${KEY}&type=BOOKING_REQUEST`).type).toBe('BOOKING_REQUEST');
    expect(read(`bookingKey=${KEY}&type=APPOINTMENT_RESULTS`).type).toBe('APPOINTMENT');
    expect(read(`bookingKey=${KEY}&type=PATIENT_PORTAL`).type).toBe('APPOINTMENT');
    expect(read(`bookingKey=${KEY}`).type).toBe('APPOINTMENT');
  });

  it("should return to the booking's own page when no return URL is given, inside /iframe when embedded", () => {
    expect(read(`bookingKey=${KEY}`).returnUrl).toBe(`/appointments/${KEY}`);
    expect(read(`bookingKey=${KEY}&isBookingRequest=true`).returnUrl).toBe(`/booking-requests/${KEY}`);
    expect(read(`bookingKey=${KEY}`, true).returnUrl).toBe(`/iframe/appointments/${KEY}`);
    expect(read(`returnUrl=/a/${KEY}`, true).returnUrl).toBe(`/iframe/a/${KEY}`);
    expect(read(`returnUrl=/iframe/a/${KEY}`, true).returnUrl).toBe(`/iframe/a/${KEY}`);
  });

  it('should refuse return URLs that leave the site or loop back to sign-in', () => {
    for (const bad of ['https://evil.example/a', '//evil.example/a', 'javascript:alert(1)', '/\\evil.example', '/authentication?x=1']) {
      expect(read(`bookingKey=${KEY}&returnUrl=${encodeURIComponent(bad)}`).returnUrl).toBe(`/appointments/${KEY}`);
    }
  });

  it('should ignore a malformed booking key or date of birth', () => {
    expect(read('bookingKey=short').bookingKey).toBeNull();
    expect(read('bookingKey=' + encodeURIComponent('../../etc/passwd-xxxxxxxxxxxxxxxx')).bookingKey).toBeNull();
    expect(read(`bookingKey=${KEY}&dateOfBirth=14/03/1991`).dateOfBirth).toBe('');
    expect(read('').returnUrl).toBe('/');
  });

  it('bookingFromUrl should ignore pages that are not bookings', () => {
    expect(bookingFromUrl('/about')).toBeNull();
    expect(bookingFromUrl(`/check-in?key=${KEY}`)).toBeNull();
  });
});
