import { describe, expect, it } from 'vitest';
import { createRoleMapper } from '../../../../src-server/modules/staff-access/roles';
import { createTestClock } from '../../../../src-server/platform/clock';
import { checkJwksUri, createTokenVerifier } from '../../../../src-server/modules/staff-access/token-verifier';

// Claims → portal roles (docs/rules/staff-access.md#roles), and where keys may come from
// (docs/rules/staff-access.md#configuration).

describe('role mapping', () => {
  const mapRoles = createRoleMapper({
    roles: { 'Portal.Admin': ['admin', 'staff'], 'Portal.Referrer': 'referrer' },
    groups: { 'group-it': 'kioskAdmin' },
  });

  it('maps app roles and groups, each through its own table, in a fixed order and without duplicates', () => {
    expect(mapRoles({ roles: ['Portal.Referrer', 'Portal.Admin', 'Portal.Admin'] })).toEqual(['staff', 'admin', 'referrer']);
    expect(mapRoles({ groups: ['group-it'] })).toEqual(['kioskAdmin']);
    // A group id is not an app role, and the other way round.
    expect(mapRoles({ roles: ['group-it'], groups: ['Portal.Admin'] })).toEqual([]);
    // A single string claim counts too; other types are ignored.
    expect(mapRoles({ roles: 'Portal.Referrer', groups: [42, null, { x: 1 }] })).toEqual(['referrer']);
  });

  it('gives nothing for unmapped values, also for names an object inherits', () => {
    expect(mapRoles({})).toEqual([]);
    expect(mapRoles({ roles: ['constructor', '__proto__', 'toString', 'hasOwnProperty'], groups: ['constructor'] })).toEqual([]);
  });

  it('refuses a mapping that names an unknown role', () => {
    expect(() => createRoleMapper({ roles: { x: 'superuser' as 'admin' } })).toThrow(/unknown role/);
  });
});

describe('the JWKS address', () => {
  it('accepts https anywhere and http only on loopback', () => {
    expect(checkJwksUri('https://login.microsoftonline.com/t/discovery/v2.0/keys').protocol).toBe('https:');
    expect(checkJwksUri('http://127.0.0.1:4000/jwks').hostname).toBe('127.0.0.1');
    expect(checkJwksUri('http://localhost:4000/jwks').hostname).toBe('localhost');
    expect(() => checkJwksUri('http://idp.example.org/jwks')).toThrow(/https/);
    expect(() => checkJwksUri('file:///etc/keys.json')).toThrow(/https/);
  });
});

describe('the verifier options', () => {
  const clock = createTestClock('2026-03-10T01:00:00.000Z');
  const base = { issuer: 'https://login.example.test/t/v2.0', jwksUri: 'https://login.example.test/keys', audience: 'api://portal' };

  it('refuses an empty issuer or audience (jose would skip the check)', () => {
    expect(() => createTokenVerifier(base, clock)).not.toThrow();
    expect(() => createTokenVerifier({ ...base, issuer: '' }, clock)).toThrow(/issuer/);
    expect(() => createTokenVerifier({ ...base, issuer: [] }, clock)).toThrow(/issuer/);
    expect(() => createTokenVerifier({ ...base, audience: [] }, clock)).toThrow(/audience/);
    expect(() => createTokenVerifier({ ...base, audience: ['api://portal', ' '] }, clock)).toThrow(/audience/);
  });
});
