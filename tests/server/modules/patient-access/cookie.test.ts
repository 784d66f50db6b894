import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, sessionCookie } from '../../../../src-server/modules/patient-access/cookie';

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
