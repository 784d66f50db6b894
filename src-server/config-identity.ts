import { IDENTITY_PROTOCOL_MODES, type IdentityProtocolMode } from '@contract/api/config';
import { STAFF_ROLES, type StaffRole } from '@contract/api/staff-access';

/**
 * Which identity provider staff, referring doctors and IT staff sign in with
 * (docs/rules/staff-access.md, docs/identity.md), parsed from the IDENTITY_* variables:
 * - IDENTITY_ISSUER set: the provider's own (Entra ID: https://login.microsoftonline.com/<tenant>/v2.0),
 *   with its JWKS address, the portal's client id and the API audience;
 * - unset, outside production: the local demo provider (src-server/dev-identity/) runs inside the
 *   portal under /dev/idp on the portal's own origin (no certificate to accept), or with
 *   DEV_IDENTITY_PORT on a server of its own (https, self-signed; 0: any free port; off: not at all);
 * - unset in production: staff sign-in is off.
 */

/** Claim values → portal roles, per claim (the shape of StaffRoleMapping in modules/staff-access/roles.ts). */
export interface IdentityRoleMapping {
  roles: Record<string, StaffRole[]>;
  groups: Record<string, StaffRole[]>;
}

/** What the browser's MSAL is told (the application config's identity* fields); nothing secret. */
export interface BrowserSignInSettings {
  clientId: string;
  authority: string;
  scope: string;
  protocolMode: IdentityProtocolMode;
}

export type IdentityConfig =
  | {
      kind: 'external';
      issuer: string;
      jwksUri: string;
      audience: string;
      clientId: string;
      roleMapping: IdentityRoleMapping;
      browser: BrowserSignInSettings;
    }
  | { kind: 'local'; port: number | 'portal'; roleMapping: IdentityRoleMapping }
  | { kind: 'off' };

/** The Entra ID app-role values the demo accounts carry (resources/demo-provider/identity-accounts.json). */
export const DEFAULT_ROLE_MAP =
  'roles:Portal.Staff=staff,roles:Portal.Admin=admin,roles:Portal.Referrer=referrer,roles:Portal.KioskAdmin=kioskAdmin';

type Env = Readonly<Record<string, string | undefined>>;
type Problem = (name: string, message: string) => void;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function httpsOrLoopback(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
  } catch {
    return false;
  }
}

/** `roles:Portal.Staff=staff,groups:<object id>=admin,…` → the mapping; a bad entry is a problem line. */
export function parseRoleMap(raw: string, problem: Problem): IdentityRoleMapping {
  // Prototype-free: a claim value such as __proto__ must stay an ordinary key.
  const mapping: IdentityRoleMapping = {
    roles: Object.create(null) as Record<string, StaffRole[]>,
    groups: Object.create(null) as Record<string, StaffRole[]>,
  };
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const match = /^(roles|groups):([^=\s]{1,200})=(\w+)$/.exec(entry);
    const role = match?.[3];
    if (match === null || role === undefined || !(STAFF_ROLES as readonly string[]).includes(role)) {
      problem(
        'IDENTITY_ROLE_MAP',
        `each entry is roles:<app role>=<role> or groups:<group id>=<role> with a role of ${STAFF_ROLES.join(', ')}; got '${entry.slice(0, 80)}'`,
      );
      continue;
    }
    const claim = match[1] === 'roles' ? mapping.roles : mapping.groups;
    const value = match[2] ?? '';
    const roles = Object.prototype.hasOwnProperty.call(claim, value) ? (claim[value] ?? []) : [];
    claim[value] = [...roles, role as StaffRole];
  }
  return mapping;
}

export function parseIdentityConfig(env: Env, production: boolean, problem: Problem): IdentityConfig {
  const roleMapping = parseRoleMap(read(env, 'IDENTITY_ROLE_MAP') ?? DEFAULT_ROLE_MAP, problem);
  const issuer = read(env, 'IDENTITY_ISSUER');
  const external = [
    'IDENTITY_JWKS_URI',
    'IDENTITY_CLIENT_ID',
    'IDENTITY_AUDIENCE',
    'IDENTITY_AUTHORITY',
    'IDENTITY_SCOPE',
    'IDENTITY_PROTOCOL_MODE',
  ] as const;
  if (issuer === undefined) {
    for (const name of external)
      if (read(env, name) !== undefined) problem(name, 'is set but IDENTITY_ISSUER is not; set IDENTITY_ISSUER too or unset it');
    const rawPort = read(env, 'DEV_IDENTITY_PORT');
    if (rawPort === 'off') return { kind: 'off' };
    let port: number | 'portal' = 'portal';
    if (rawPort !== undefined) {
      const parsed = /^\d+$/.test(rawPort) ? Number(rawPort) : NaN;
      if (!Number.isSafeInteger(parsed) || parsed > 65535)
        problem('DEV_IDENTITY_PORT', `must be off or a port from 0 to 65535, got '${rawPort.slice(0, 20)}'`);
      else port = parsed;
    }
    // The demo provider's accounts and passwords are public: never in production.
    return production ? { kind: 'off' } : { kind: 'local', port, roleMapping };
  }
  if (!httpsOrLoopback(issuer)) problem('IDENTITY_ISSUER', 'must be an https URL such as https://login.microsoftonline.com/<tenant>/v2.0');
  const jwksUri = read(env, 'IDENTITY_JWKS_URI');
  if (jwksUri === undefined)
    problem('IDENTITY_JWKS_URI', 'is required with IDENTITY_ISSUER, e.g. https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys');
  else if (!httpsOrLoopback(jwksUri)) problem('IDENTITY_JWKS_URI', 'must be an https URL');
  const clientId = read(env, 'IDENTITY_CLIENT_ID');
  if (clientId === undefined) problem('IDENTITY_CLIENT_ID', "is required with IDENTITY_ISSUER: the portal's application (client) id");
  const audience = read(env, 'IDENTITY_AUDIENCE') ?? (clientId === undefined ? '' : `api://${clientId}`);
  const browser = parseBrowserSignIn(env, { issuer, audience, clientId: clientId ?? '' }, problem);
  return { kind: 'external', issuer, jwksUri: jwksUri ?? '', audience, clientId: clientId ?? '', roleMapping, browser };
}

/** Entra ID's issuer is the authority plus /v2.0; MSAL wants the authority. */
function parseBrowserSignIn(
  env: Env,
  known: { issuer: string; audience: string; clientId: string },
  problem: Problem,
): BrowserSignInSettings {
  const configured = read(env, 'IDENTITY_AUTHORITY');
  const authority = configured ?? known.issuer.replace(/\/v2\.0\/?$/, '');
  let host = '';
  try {
    host = new URL(authority).hostname;
  } catch {
    // reported below
  }
  // Derived from the issuer, whose own check already speaks.
  if (configured !== undefined && (!httpsOrLoopback(authority) || host === ''))
    problem('IDENTITY_AUTHORITY', 'must be an https URL such as https://login.microsoftonline.com/<tenant id>');
  const rawMode = read(env, 'IDENTITY_PROTOCOL_MODE');
  let protocolMode: IdentityProtocolMode = host === 'login.microsoftonline.com' ? 'AAD' : 'OIDC';
  if (rawMode !== undefined) {
    if ((IDENTITY_PROTOCOL_MODES as readonly string[]).includes(rawMode)) protocolMode = rawMode as IdentityProtocolMode;
    else problem('IDENTITY_PROTOCOL_MODE', `must be ${IDENTITY_PROTOCOL_MODES.join(' or ')}, got '${rawMode.slice(0, 20)}'`);
  }
  const scope = read(env, 'IDENTITY_SCOPE') ?? `${known.audience.replace(/\/$/, '')}/access_as_user`;
  return { clientId: known.clientId, authority, scope, protocolMode };
}
