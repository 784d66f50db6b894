import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_SESSION_COOKIE, StaffSignInRequestSchema, StaffUserSchema } from '@contract/api/staff-access';
import { ApiErrorBodySchema } from '@contract/errors';
import type { BrowserSignInSettings } from '../../config-identity';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { errorAnswers, forbidden, serviceUnavailable, unauthorized } from '../../platform/errors';
import { ANY_STAFF_ROLE } from '../../platform/route-access';
import { clearedSessionCookie, readCookie, sessionCookie } from '../patient-access/public';
import { createStaffAccessRepository } from './repository';
import type { StaffRoleMapping } from './roles';
import { createStaffAccessService, userOf, type StaffAccessService } from './service';
import { staffSessionOf } from './session-guard';
import { createTokenVerifier, KeySetUnavailableError, type TokenVerifierOptions } from './token-verifier';

/** Thin routes for staff sign-in (docs/rules/staff-access.md); the rules are in service.ts. */

/** Where the provider's tokens are checked, and how their claims become portal roles. */
export interface StaffIdentityOptions extends TokenVerifierOptions {
  roleMapping: StaffRoleMapping;
  /** What the browser's MSAL is told (application config identity*, docs/identity.md); absent: the stored config stays. */
  browser?: BrowserSignInSettings;
}

export const TOKEN_REFUSED_MESSAGE = 'The sign-in was not accepted. Please sign in again.';
export const NO_ROLE_MESSAGE = 'Your account has no access to the portal. Ask your administrator.';
const SWEEP_EVERY_MS = 10 * 60_000;

const cookieToken = (request: FastifyRequest): string | null => readCookie(request.headers.cookie, STAFF_SESSION_COOKIE);

export function registerStaffAccessRoutes(app: FastifyInstance, service: StaffAccessService): void {
  app.decorate('staffSessions', { current: (token: string | null) => service.current(token) });

  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-access'];
  const errors = errorAnswers(400, 401, 403, 503);

  api.post(
    '/api/staff-access/session',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "Anyone holding an access token from the provider's identity provider: verifies it (signature, issuer, audience, expiry) and opens a staff session under a new cookie; 401 for an invalid token, 403 when the token maps to no portal role",
        body: StaffSignInRequestSchema,
        response: { 200: StaffUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      let result;
      try {
        result = await service.signIn(request.body.token, cookieToken(request));
      } catch (error) {
        if (!(error instanceof KeySetUnavailableError)) throw error;
        request.log.warn({ code: error.code }, '[staff-access] the identity provider key set could not be read');
        throw serviceUnavailable('Sign-in is unavailable right now; try again shortly.');
      }
      if (!result.ok) {
        if (result.status === 403) throw forbidden(NO_ROLE_MESSAGE);
        // Rate limited, naming the client by its address HMAC: the token's claims cannot be trusted.
        await request.server.securityAudit.refused(request, { reason: `staff_sign_in_${result.reason}` });
        throw unauthorized(TOKEN_REFUSED_MESSAGE);
      }
      void reply.header('set-cookie', sessionCookie(STAFF_SESSION_COOKIE, result.token));
      return userOf(result.session);
    },
  );

  api.get(
    '/api/staff-access/me',
    {
      config: { access: { ...ANY_STAFF_ROLE, signedOutIsNormal: true } },
      schema: {
        tags,
        summary: 'A signed-in staff session (any role): the signed-in user; 401 when not signed in',
        response: { 200: StaffUserSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return userOf(staffSessionOf(request));
    },
  );

  // The open page's keep-alive ping (docs/rules/staff-access.md#keep-alive): the guard's lookup slides
  // the idle timer, as any staff request does; the 12-hour maximum still ends the session.
  api.post(
    '/api/staff-access/keep-alive',
    {
      config: { access: ANY_STAFF_ROLE },
      schema: {
        tags,
        summary:
          'A signed-in staff session (any role): keeps it from the idle timeout while its page is open (the 12-hour maximum still ends it); 204, 401 when there is none',
        response: { 204: z.null(), ...errors },
      },
    },
    // The access check found the session, and resolving it slid its idle timer.
    async (_request, reply) => reply.code(204).send(null),
  );

  api.post(
    '/api/staff-access/logout',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Anyone: ends the staff session of this browser (if any) and clears its cookie',
        response: { 204: z.null(), 503: ApiErrorBodySchema },
      },
    },
    async (request, reply) => {
      await service.logout(cookieToken(request));
      return reply.code(204).header('set-cookie', clearedSessionCookie(STAFF_SESSION_COOKIE)).send(null);
    },
  );

  // Ended sessions are deleted now and then (any process may do it).
  app.jobs.every(SWEEP_EVERY_MS, 'staff-access.ended-sessions', () => service.sweep());
}

/** The staff-access module on this server: token verification, sessions, routes and the guard. */
export function registerStaffAccess(app: FastifyInstance, deps: { db: Database; clock: Clock; identity: StaffIdentityOptions }): void {
  const { db, clock, identity } = deps;
  registerStaffAccessRoutes(
    app,
    createStaffAccessService({
      db,
      clock,
      repository: createStaffAccessRepository(db),
      verifier: createTokenVerifier(identity, clock),
      roleMapping: identity.roleMapping,
    }),
  );
}
