import { IDENTITY_PROTOCOL_MODES, type IdentityProtocolMode } from '@contract/api/config';
import { STAFF_ROLES, type StaffRole } from '@contract/api/staff-access';
import type { Rule, Values } from './config-env';
import { collected, refuse, type Parse } from './config-variable';

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

type Problem = (name: string, message: string) => void;

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

// The parsers of the IDENTITY_* variables and DEV_IDENTITY_PORT (declared in config-env.ts).

export const identityRoleMap: Parse<IdentityRoleMapping> = (raw) =>
  collected((problem) => parseRoleMap(raw ?? DEFAULT_ROLE_MAP, (_name, message) => problem(message)));

export const identityIssuer: Parse<string | null> = (raw) =>
  raw !== undefined && !httpsOrLoopback(raw)
    ? refuse('must be an https URL such as https://login.microsoftonline.com/<tenant>/v2.0')
    : (raw ?? null);

export const identityJwksUri: Parse<string | null> = (raw) =>
  raw !== undefined && !httpsOrLoopback(raw) ? refuse('must be an https URL') : (raw ?? null);

export const identityAuthority: Parse<string | null> = (raw) =>
  raw !== undefined && (!httpsOrLoopback(raw) || hostOf(raw) === '')
    ? refuse('must be an https URL such as https://login.microsoftonline.com/<tenant id>')
    : (raw ?? null);

export const identityProtocolMode: Parse<IdentityProtocolMode | null> = (raw) => {
  if (raw === undefined) return null;
  if ((IDENTITY_PROTOCOL_MODES as readonly string[]).includes(raw)) return raw as IdentityProtocolMode;
  return refuse(`must be ${IDENTITY_PROTOCOL_MODES.join(' or ')}, got '${raw.slice(0, 20)}'`);
};

/** off, a port (0: any free one), or null: inside the portal under /dev/idp. */
export const devIdentityPort: Parse<number | 'off' | null> = (raw) => {
  if (raw === undefined || raw === 'off') return raw ?? null;
  const parsed = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed > 65535) return refuse(`must be off or a port from 0 to 65535, got '${raw.slice(0, 20)}'`);
  return parsed;
};

function hostOf(raw: string): string {
  try {
    return new URL(raw).hostname;
  } catch {
    return '';
  }
}

/** A provider needs its key set and the portal's client id. */
export const identityComplete: Rule = ({ text }, problem) => {
  if (text.IDENTITY_ISSUER === undefined) return;
  if (text.IDENTITY_JWKS_URI === undefined)
    problem('IDENTITY_JWKS_URI', 'is required with IDENTITY_ISSUER, e.g. https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys');
  if (text.IDENTITY_CLIENT_ID === undefined)
    problem('IDENTITY_CLIENT_ID', "is required with IDENTITY_ISSUER: the portal's application (client) id");
};

/** The provider's own, else the local demo one (never in production: its accounts and passwords are public), else off. */
export function identityOf(values: Values): IdentityConfig {
  const roleMapping = values.IDENTITY_ROLE_MAP;
  const issuer = values.IDENTITY_ISSUER;
  if (issuer === null) {
    const port = values.DEV_IDENTITY_PORT;
    if (port === 'off' || values.NODE_ENV) return { kind: 'off' };
    return { kind: 'local', port: port ?? 'portal', roleMapping };
  }
  const clientId = values.IDENTITY_CLIENT_ID ?? '';
  const audience = values.IDENTITY_AUDIENCE ?? (clientId === '' ? '' : `api://${clientId}`);
  // Entra ID's issuer is the authority plus /v2.0; MSAL wants the authority.
  const authority = values.IDENTITY_AUTHORITY ?? issuer.replace(/\/v2\.0\/?$/, '');
  const browser: BrowserSignInSettings = {
    clientId,
    authority,
    scope: values.IDENTITY_SCOPE ?? `${audience.replace(/\/$/, '')}/access_as_user`,
    protocolMode: values.IDENTITY_PROTOCOL_MODE ?? (hostOf(authority) === 'login.microsoftonline.com' ? 'AAD' : 'OIDC'),
  };
  return { kind: 'external', issuer, jwksUri: values.IDENTITY_JWKS_URI ?? '', audience, clientId, roleMapping, browser };
}
