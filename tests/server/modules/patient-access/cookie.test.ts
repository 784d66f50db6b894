import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, sessionCookie } from '../../../../src-server/modules/patient-access/cookie';
import { generateOtpCode } from '../../../../src-server/modules/patient-access/service';
import { maskPhone } from '../../../../src-server/modules/patient-access/otp-messages';
import { maskEmail } from '../../../../src-server/platform/mask';
import { sameHost } from '../../../../src-server/platform/plugins/csrf-guard';

describe('session cookie helpers', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['portal_session=abc_DEF-123', 'abc_DEF-123'],
    ['theme=dark; portal_session=tok; other=1', 'tok'],
    ['theme=dark;portal_session="tok"', 'tok'],
    ['portal_session=first; portal_session=second', 'first'],
    ['xportal_session=nope', null],
    ['portal_session=bad value', null],
    ['portal_session=a%20b', null],
    ['portal_session', null],
    [['a=1', 'portal_session=fromArray'], 'fromArray'],
  ])('reads %j as %j', (header, expected) => {
    expect(readCookie(header, 'portal_session')).toBe(expected);
  });

  it('builds the session cookie with every attribute the iframe needs', () => {
    expect(sessionCookie('portal_session', 'tok-1')).toBe('portal_session=tok-1; Path=/api; HttpOnly; Secure; SameSite=None; Partitioned');
    expect(() => sessionCookie('portal_session', 'a;b')).toThrow();
    expect(clearedSessionCookie('portal_session')).toMatch(
      /^portal_session=; Path=\/api; Max-Age=0; .*HttpOnly; Secure; SameSite=None; Partitioned$/,
    );
  });
});

describe('one-time password codes', () => {
  it('are always 6 digits, keep leading zeros and spread evenly over the first digit', () => {
    const counts = Array.from({ length: 10 }, () => 0);
    for (let index = 0; index < 100_000; index += 1) {
      const code = generateOtpCode();
      if (!/^\d{6}$/.test(code)) throw new Error(`not 6 digits: ${code}`);
      counts[Number(code[0])] = (counts[Number(code[0])] ?? 0) + 1;
    }
    // 10 000 expected per digit; 5 standard deviations is about ±475.
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    expect(counts[0]).toBeGreaterThan(0);
  });
});

describe('masked destinations', () => {
  it.each([
    ['liam.example@example.com', 'l***@example.com'],
    ['a@b.co', 'a***@b.co'],
    ['broken', '***'],
  ])('masks the e-mail %s as %s', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it.each([
    ['0491570006', '*******006'],
    ['+61 491 570 006', '********006'],
    ['12', '**'],
  ])('masks the number %s as %s', (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });
});

describe('CSRF guard: Origin against the request host', () => {
  it.each([
    ['https://portal.example', 'portal.example', true],
    ['https://portal.example:443', 'portal.example', true],
    ['http://127.0.0.1:3000', '127.0.0.1:3000', true],
    ['https://evil.example', 'portal.example', false],
    ['https://portal.example.evil.example', 'portal.example', false],
    ['http://127.0.0.1:3001', '127.0.0.1:3000', false],
    ['null', 'portal.example', false],
  ])('%s sent to %s is the same host: %s', (origin, host, same) => {
    expect(sameHost(origin, host)).toBe(same);
  });
});
