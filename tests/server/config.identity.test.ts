import { describe, expect, it } from 'vitest';
import { parseConfig, type ConfigResult } from '../../src-server/config';

// Staff sign-in settings (src-server/config-identity.ts, docs/identity.md): the provider's own
// identity provider, the local demo one outside production, or off; each bad value is one problem line.

const context = { cwd: '/srv/portal', packageVersion: '1.0.0', gitShortHash: null };
const problems = (result: ConfigResult): string[] => (result.ok ? [] : result.problems);
const identityOf = (env: Record<string, string>) => {
  const result = parseConfig(env, context);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config.identity;
};

describe('identity settings', () => {
  it('starts the local demo provider by default, on a fixed port when asked, and not at all with off', () => {
    // By default inside the portal (/dev/idp); a port gives it a server of its own.
    expect(identityOf({})).toMatchObject({ kind: 'local', port: 'portal' });
    expect(identityOf({ DEV_IDENTITY_PORT: '0' })).toMatchObject({ kind: 'local', port: 0 });
    expect(identityOf({ DEV_IDENTITY_PORT: '3443' })).toMatchObject({ kind: 'local', port: 3443 });
    expect(identityOf({ DEV_IDENTITY_PORT: 'off' })).toEqual({ kind: 'off' });
  });

  it('never starts the demo provider (public passwords) in production', () => {
    const env = {
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://portal.example.com',
      SMTP_HOST: 'smtp.example.com',
      SMTP_FROM: 'portal@example.com',
    };
    expect(identityOf(env)).toEqual({ kind: 'off' });
  });

  it('asks for the key set and the client id with an issuer, and an https issuer', () => {
    expect(problems(parseConfig({ IDENTITY_ISSUER: 'https://login.microsoftonline.com/t/v2.0' }, context))).toEqual([
      expect.stringContaining('IDENTITY_JWKS_URI: is required with IDENTITY_ISSUER'),
      expect.stringContaining('IDENTITY_CLIENT_ID: is required with IDENTITY_ISSUER'),
    ]);
    expect(
      problems(
        parseConfig(
          { IDENTITY_ISSUER: 'http://idp.example.com', IDENTITY_JWKS_URI: 'https://idp.example.com/keys', IDENTITY_CLIENT_ID: 'c' },
          context,
        ),
      ),
    ).toEqual([expect.stringContaining('IDENTITY_ISSUER: must be an https URL')]);
  });

  it('refuses provider settings without an issuer, unknown roles and malformed mapping entries', () => {
    expect(problems(parseConfig({ IDENTITY_CLIENT_ID: 'c' }, context))).toEqual([
      expect.stringContaining('IDENTITY_CLIENT_ID: is set but IDENTITY_ISSUER is not'),
    ]);
    const bad = problems(parseConfig({ IDENTITY_ROLE_MAP: 'roles:Portal.Staff=superuser,Portal.Admin=admin,roles:Ok=staff' }, context));
    expect(bad).toHaveLength(2);
    expect(bad.every((line) => line.startsWith('- IDENTITY_ROLE_MAP:'))).toBe(true);
    expect(problems(parseConfig({ DEV_IDENTITY_PORT: '70000' }, context))).toEqual([expect.stringContaining('DEV_IDENTITY_PORT')]);
  });

  it("derives MSAL's authority, scope and protocol mode, and takes them as configured", () => {
    const entra = identityOf({
      IDENTITY_ISSUER: 'https://login.microsoftonline.com/t/v2.0',
      IDENTITY_JWKS_URI: 'https://login.microsoftonline.com/t/discovery/v2.0/keys',
      IDENTITY_CLIENT_ID: 'c1',
    });
    if (entra.kind !== 'external') throw new Error('expected the external provider');
    expect(entra.browser).toEqual({
      clientId: 'c1',
      authority: 'https://login.microsoftonline.com/t',
      scope: 'api://c1/access_as_user',
      protocolMode: 'AAD',
    });
    const other = identityOf({
      IDENTITY_ISSUER: 'https://idp.example.org/realms/radiology',
      IDENTITY_JWKS_URI: 'https://idp.example.org/realms/radiology/certs',
      IDENTITY_CLIENT_ID: 'portal',
      IDENTITY_AUDIENCE: 'portal-api',
      IDENTITY_SCOPE: 'portal-api/read',
    });
    if (other.kind !== 'external') throw new Error('expected the external provider');
    expect(other.browser).toEqual({
      clientId: 'portal',
      authority: 'https://idp.example.org/realms/radiology',
      scope: 'portal-api/read',
      protocolMode: 'OIDC',
    });
    const valid = {
      IDENTITY_ISSUER: 'https://idp.example.org',
      IDENTITY_JWKS_URI: 'https://idp.example.org/keys',
      IDENTITY_CLIENT_ID: 'c',
    };
    expect(problems(parseConfig({ ...valid, IDENTITY_AUTHORITY: 'http://idp.example.org' }, context))).toEqual([
      expect.stringContaining('IDENTITY_AUTHORITY: must be an https URL'),
    ]);
    expect(problems(parseConfig({ ...valid, IDENTITY_PROTOCOL_MODE: 'SAML' }, context))).toEqual([
      expect.stringContaining('IDENTITY_PROTOCOL_MODE: must be AAD or OIDC'),
    ]);
  });

  it('keeps a mapping value such as __proto__ an ordinary key', () => {
    const identity = identityOf({ IDENTITY_ROLE_MAP: 'groups:__proto__=staff,groups:constructor=admin' });
    if (identity.kind !== 'local') throw new Error('expected the local provider');
    expect(Object.entries(identity.roleMapping.groups)).toEqual([
      ['__proto__', ['staff']],
      ['constructor', ['admin']],
    ]);
  });
});
