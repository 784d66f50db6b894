import { describe, expect, it } from 'vitest';
import { BOOKING_CODE_MAX_LENGTH, bookingCodePayload, bookingKeyFromCode, groupedBookingKey } from '@contract/booking-code';

// The QR payload (src-contract/booking-code.ts): built from the public URL and parsed strictly,
// whatever a camera or a keyboard-wedge scanner hands over.

const KEY = 'RXizpOy124eIE3xqxwcjKA';

describe('booking code payload', () => {
  it('builds the short appointment link and reads the key back out of it', () => {
    const payload = bookingCodePayload('https://portal.example.com/', KEY);
    expect(payload).toBe(`https://portal.example.com/a/${KEY}`);
    expect(bookingKeyFromCode(payload)).toBe(KEY);
    expect(bookingKeyFromCode(bookingCodePayload('https://example.com/imaging/portal', KEY))).toBe(KEY);
  });

  it('refuses to build a payload from something that is not a booking key', () => {
    expect(() => bookingCodePayload('https://portal.example.com', 'short')).toThrow(RangeError);
    expect(() => bookingCodePayload('https://portal.example.com', `${KEY}/../x`)).toThrow(RangeError);
  });

  it.each([
    [`https://portal.example.com/a/${KEY}`, 'the short link'],
    [`https://other-host.example:8443/appointments/${KEY}`, 'another origin and the long path'],
    [`http://localhost:3000/a/${KEY}/`, 'a trailing slash'],
    [`  https://portal.example.com/a/${KEY}\r\n`, "a scanner's whitespace and Enter"],
    [`https://portal.example.com/a/${KEY}\n`, "a decoder's newline"],
    [`https://[::1]:3000/a/${KEY}`, 'an IPv6 host'],
  ])('reads %s (%s)', (text) => {
    expect(bookingKeyFromCode(text)).toBe(KEY);
  });

  it.each([
    ['', 'empty'],
    [KEY, 'a bare key'],
    [`javascript:alert(1)//https://portal.example.com/a/${KEY}`, 'a javascript: URL'],
    [`javascript://portal.example.com/a/${KEY}`, 'a javascript: URL shaped like ours'],
    [`ftp://portal.example.com/a/${KEY}`, 'another scheme'],
    [`https://portal.example.com/br/${KEY}`, 'a booking-request link'],
    [`https://portal.example.com/a/${KEY}/result`, 'a deeper path'],
    [`https://portal.example.com/a/${KEY}?dateOfBirth=1983-06-30`, 'a query'],
    [`https://portal.example.com/a/${KEY}#x`, 'a fragment'],
    [`https://user:pw@portal.example.com/a/${KEY}`, 'user info'],
    [`https://portal.example.com/../a/${KEY}`, 'a dot segment'],
    [`https://portal.example.com/%61/${KEY}`, 'an escape'],
    [`https://portal.example.com/a/short`, 'a key too short'],
    [`https://portal.example.com/a/${'k'.repeat(65)}`, 'a key too long'],
    [`https://portal.example.com/a/${KEY}!`, 'a character a key never has'],
    [`https://portal.example.com/a/${KEY}\nhttps://evil.example/a/${KEY}`, 'two lines'],
    [`https://portal.example.com/a/${KEY}\u0000`, 'a control character'],
    [`https://${'x'.repeat(BOOKING_CODE_MAX_LENGTH)}.example/a/${KEY}`, 'too long'],
    ['WIFI:S:lobby;T:WPA;P:secret;;', 'a foreign code'],
  ])('refuses %s (%s)', (text) => {
    expect(bookingKeyFromCode(text)).toBeNull();
  });

  it('groups the key in fours for reading', () => {
    expect(groupedBookingKey(KEY)).toBe('RXiz pOy1 24eI E3xq xwcj KA');
  });
});
