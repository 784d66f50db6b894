import { describe, expect, it } from 'vitest';
import { bookingFromUrl, readAuthenticationParams } from '../../../../src-web/features/patient-access/authentication-params';

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
      otpChannel: null,
    });
  });

  it('should take the booking key and type from the return URL when the query has none', () => {
    expect(read(`returnUrl=/booking-requests/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'BOOKING_REQUEST' });
    expect(read(`returnUrl=/br/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'BOOKING_REQUEST' });
    expect(read(`returnUrl=/a/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT' });
    expect(read(`returnUrl=/north-shore/appointments/pending/${KEY}`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT' });
    expect(read(`returnUrl=/north-shore/appointments/${KEY}/result`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT' });
  });

  it('should make isBookingRequest=true a booking request, and keep the result types as they are', () => {
    expect(read(`bookingKey=${KEY}&isBookingRequest=true`).type).toBe('BOOKING_REQUEST');
    expect(read(`bookingKey=${KEY}&type=BOOKING_REQUEST`).type).toBe('BOOKING_REQUEST');
    expect(read(`bookingKey=${KEY}&type=APPOINTMENT_RESULTS`).type).toBe('APPOINTMENT_RESULTS');
    expect(read(`bookingKey=${KEY}&type=patient_portal`).type).toBe('PATIENT_PORTAL');
    expect(read(`bookingKey=${KEY}&type=SOMETHING_ELSE`).type).toBe('APPOINTMENT');
    expect(read(`bookingKey=${KEY}`).type).toBe('APPOINTMENT');
  });

  it('should take the result types from a result page as the return URL, top level and in /iframe', () => {
    expect(read(`returnUrl=/appointments/${KEY}/result`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT_RESULTS' });
    expect(read(`returnUrl=/iframe/appointments/${KEY}/result`)).toMatchObject({ bookingKey: KEY, type: 'APPOINTMENT_RESULTS' });
    expect(read(`returnUrl=${encodeURIComponent(`/appointments/${KEY}/result?shared=true`)}`).type).toBe('APPOINTMENT_RESULTS');
    expect(read(`returnUrl=${encodeURIComponent(`/appointments/${KEY}/result/patient?dateOfBirth=1991-03-14&otpType=SMS`)}`)).toMatchObject(
      { bookingKey: KEY, type: 'PATIENT_PORTAL', returnUrl: `/appointments/${KEY}/result/patient?dateOfBirth=1991-03-14&otpType=SMS` },
    );
    expect(bookingFromUrl(`/iframe/appointments/${KEY}/result/patient`)).toEqual({ bookingKey: KEY, type: 'PATIENT_PORTAL' });
    // Not a result page: another path below the appointment.
    expect(bookingFromUrl(`/appointments/${KEY}/results`)).toEqual({ bookingKey: KEY, type: 'APPOINTMENT' });
  });

  it("should return to the result page when a result sign-in names no return URL, and read the patient portal link's hints", () => {
    expect(read(`bookingKey=${KEY}&type=APPOINTMENT_RESULTS`).returnUrl).toBe(`/appointments/${KEY}/result`);
    expect(read(`bookingKey=${KEY}&type=PATIENT_PORTAL`, true).returnUrl).toBe(`/iframe/appointments/${KEY}/result/patient`);
    expect(read(`bookingKey=${KEY}&type=PATIENT_PORTAL&dateOfBirth=1991-03-14&otpType=sms`)).toMatchObject({
      dateOfBirth: '1991-03-14',
      otpChannel: 'SMS',
    });
    expect(read(`bookingKey=${KEY}&type=PATIENT_PORTAL&otpType=PIGEON`).otpChannel).toBeNull();
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
