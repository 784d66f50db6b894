import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { StaffRole, StaffUser } from '@contract/api/staff-access';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { randomToken } from '../../platform/ids';
import type { StaffAccessRepository, StaffPerson, StaffSessionRow } from './repository';
import { createRoleMapper, type StaffRoleMapping } from './roles';
import type { TokenRefusal, TokenVerifier } from './token-verifier';

/**
 * Staff sign-in and sessions (docs/rules/staff-access.md#sessions): a verified token whose claims
 * map to at least one portal role opens a server-side session under a new 256-bit cookie token
 * (only its sha256 is stored); the session ends after SESSION_IDLE_MS without a request and
 * SESSION_MAX_MS after sign-in at most. The token itself is never stored, logged or audited.
 */

export const STAFF_SESSION_IDLE_MS = 30 * 60_000;
export const STAFF_SESSION_MAX_MS = 12 * 60 * 60_000;
/** 32 bytes = 256 bits. */
export const STAFF_SESSION_TOKEN_BYTES = 32;

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
/** How the audit log names a person: a sha256 prefix of the identity provider's subject. */
export const subjectRef = (subject: string): string => `staff:${sha256Hex(subject).slice(0, 16)}`;

export interface StaffAccessServiceDeps {
  db: Database;
  repository: StaffAccessRepository;
  clock: Clock;
  verifier: TokenVerifier;
  roleMapping: StaffRoleMapping;
}

export type SignInResult =
  | { ok: true; token: string; session: StaffSessionRow }
  | { ok: false; status: 401; reason: TokenRefusal }
  | { ok: false; status: 403; reason: 'no_role' };

/** A claim as text of at most `max` characters, else null. */
function text(claims: JWTPayload, name: string, max: number): string | null {
  const value = claims[name];
  return typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : null;
}

/** An Australian Medicare provider number: six digits, a location character, a check letter. */
const PROVIDER_NUMBER = /^[0-9]{6}[0-9A-Z][A-Z]$/;

/**
 * A referring doctor's provider number from the token: `provider_number` (what the local identity
 * provider releases, src-server/dev-identity/accounts.ts) or `providerNumber` (a tenant's claims
 * mapping may name it so). Only for the referrer role, and only in the provider number's shape:
 * anything else is no number, so the session lists no reports rather than someone else's.
 */
function providerNumberOf(claims: JWTPayload, roles: StaffRole[]): string | null {
  if (!roles.includes('referrer')) return null;
  const value = text(claims, 'provider_number', 16) ?? text(claims, 'providerNumber', 16);
  const normalised = value?.toUpperCase() ?? null;
  return normalised !== null && PROVIDER_NUMBER.test(normalised) ? normalised : null;
}

/** The person the claims describe (Entra ID names: preferred_username, name, given_name, family_name). */
export function personFromClaims(claims: JWTPayload, subject: string, roles: StaffRole[]): StaffPerson {
  return {
    subject,
    username:
      text(claims, 'preferred_username', 320) ??
      text(claims, 'upn', 320) ??
      text(claims, 'email', 320) ??
      text(claims, 'unique_name', 320) ??
      subject,
    displayName: text(claims, 'name', 200),
    organization: text(claims, 'organization', 200),
    firstName: text(claims, 'given_name', 100),
    lastName: text(claims, 'family_name', 100),
    roles,
    providerNumber: providerNumberOf(claims, roles),
  };
}

/** What GET /api/staff-access/me answers; a referring doctor is named as the current doctor. */
export function userOf(session: StaffPerson): StaffUser {
  const doctor =
    session.roles.includes('referrer') && session.firstName !== null && session.lastName !== null
      ? { firstName: session.firstName, lastName: session.lastName }
      : null;
  return {
    username: session.username,
    organization: session.organization,
    currentDoctor: doctor,
    userId: session.subject,
    roles: session.roles,
  };
}

export function createStaffAccessService(deps: StaffAccessServiceDeps) {
  const { db, repository, clock, verifier } = deps;
  const mapRoles = createRoleMapper(deps.roleMapping);

  return {
    /**
     * Verifies the token and opens a session. An invalid token is a 401 with nothing stored (the
     * route audits it, rate limited); a valid token of a person without a portal role is a 403,
     * audited here by the person's reference. A sign-in ends the browser's earlier staff session.
     */
    async signIn(token: string, previousCookieToken: string | null = null): Promise<SignInResult> {
      const verified = await verifier.verify(token);
      if (!verified.ok) return { ok: false, status: 401, reason: verified.reason };
      const roles = mapRoles(verified.claims);
      const now = clock.now();
      if (roles.length === 0) {
        await repository.audit({
          actor: subjectRef(verified.subject),
          action: 'staff_sign_in_failed',
          subjectType: null,
          subjectId: null,
          details: { reason: 'no_role' },
          now,
        });
        return { ok: false, status: 403, reason: 'no_role' };
      }
      const person = personFromClaims(verified.claims, verified.subject, roles);
      const cookieToken = randomToken(STAFF_SESSION_TOKEN_BYTES);
      const session = await db.transaction(async (tx) => {
        // A new token at every sign-in: the browser's earlier staff session (if any) ends here.
        if (previousCookieToken !== null) await repository.deleteSessionByTokenHash(sha256Hex(previousCookieToken), tx);
        const expiresAt = new Date(now.getTime() + STAFF_SESSION_MAX_MS);
        const id = await repository.insertSession({ tokenSha256: sha256Hex(cookieToken), person, now, expiresAt }, tx);
        await repository.audit(
          {
            actor: subjectRef(person.subject),
            action: 'staff_signed_in',
            subjectType: 'staff_session',
            subjectId: id,
            details: { roles },
            now,
          },
          tx,
        );
        const row: StaffSessionRow = {
          ...person,
          id,
          createdAt: now.toISOString(),
          lastSeenAt: now.toISOString(),
          expiresAt: expiresAt.toISOString(),
        };
        return row;
      });
      return { ok: true, token: cookieToken, session };
    },

    /** The live session of a cookie token, its idle timer refreshed; an ended one is deleted. */
    async current(cookieToken: string | null): Promise<StaffSessionRow | null> {
      if (cookieToken === null) return null;
      const tokenSha256 = sha256Hex(cookieToken);
      const row = await repository.findSessionByTokenHash(tokenSha256);
      if (row === null) return null;
      const now = clock.now();
      if (now.getTime() >= Date.parse(row.expiresAt) || now.getTime() - Date.parse(row.lastSeenAt) >= STAFF_SESSION_IDLE_MS) {
        await repository.deleteSessionByTokenHash(tokenSha256);
        return null;
      }
      await repository.touchSession(row.id, now);
      return { ...row, lastSeenAt: now.toISOString() };
    },

    /** Ends the session of a cookie token (whatever its state); true when there was one. */
    async logout(cookieToken: string | null): Promise<boolean> {
      if (cookieToken === null) return false;
      return db.transaction(async (tx) => {
        const row = await repository.deleteSessionByTokenHash(sha256Hex(cookieToken), tx);
        if (row === null) return false;
        await repository.audit(
          {
            actor: subjectRef(row.subject),
            action: 'staff_signed_out',
            subjectType: 'staff_session',
            subjectId: row.id,
            details: {},
            now: clock.now(),
          },
          tx,
        );
        return true;
      });
    },

    /** Deletes sessions that ended (idle or past their maximum). */
    async sweep(): Promise<number> {
      const now = clock.now();
      return repository.deleteEndedSessions(now, new Date(now.getTime() - STAFF_SESSION_IDLE_MS));
    },
  };
}

export type StaffAccessService = ReturnType<typeof createStaffAccessService>;
