import { describe, expect, it } from 'vitest';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { clearedSessionCookie, readCookie, sessionCookie } from '../../../../src-server/modules/patient-access/cookie';

const NAME = PATIENT_SESSION_COOKIE;

describe('session cookie helpers', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['__Host-portal_session=abc_DEF-123', 'abc_DEF-123'],
    ['theme=dark; __Host-portal_session=tok; other=1', 'tok'],
    ['theme=dark;__Host-portal_session="tok"', 'tok'],
    ['__Host-portal_session=first; __Host-portal_session=second', 'first'],
    ['x__Host-portal_session=nope', null],
    // The name before the __Host- prefix is not read any more.
    ['portal_session=old-name', null],
    ['__Host-portal_session=bad value', null],
    ['__Host-portal_session=a%20b', null],
    [NAME, null],
    [['a=1', '__Host-portal_session=fromArray'], 'fromArray'],
  ])('reads %j as %j', (header, expected) => {
    expect(readCookie(header, NAME)).toBe(expected);
  });

  it('names the session cookie with the __Host- prefix', () => {
    expect(NAME).toBe('__Host-portal_session');
  });

  it('builds the session cookie with every attribute the iframe needs', () => {
    expect(sessionCookie(NAME, 'tok-1')).toBe('__Host-portal_session=tok-1; Path=/; HttpOnly; Secure; SameSite=None; Partitioned');
    expect(() => sessionCookie(NAME, 'a;b')).toThrow();
    expect(clearedSessionCookie(NAME)).toMatch(
      /^__Host-portal_session=; Path=\/; Max-Age=0; .*HttpOnly; Secure; SameSite=None; Partitioned$/,
    );
  });
});
