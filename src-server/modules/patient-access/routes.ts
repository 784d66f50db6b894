import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AuthenticateRequestSchema,
  AuthenticateResponseSchema,
  isResultSignInType,
  PATIENT_SESSION_COOKIE,
  RESULT_SIGN_IN_TYPES,
  SendOtpRequestSchema,
  SendOtpResponseSchema,
  SessionQuerySchema,
  SessionResponseSchema,
  VerifyOtpRequestSchema,
} from '@contract/api/patient-access';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import { SharedSignInRequestSchema } from '@contract/api/result-shares';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { clearedSessionCookie, sessionCookie } from './cookie';
import type { PatientAccessService, RequestContext } from './service';
import { definePatientAccessChecks } from './access-checks';
import { requirePatientSession } from './session-guard';

/** Thin routes for patient sign-in (docs/rules/patient-access.md#sign-in); the rules are in service.ts. */

const context = (request: FastifyRequest): RequestContext => ({
  cookie: request.headers.cookie,
  ip: request.ip,
  captcha: request.headers[CAPTCHA_HEADER],
});

const SWEEP_EVERY_MS = 10 * 60_000;

const errors = errorAnswers(400, 401, 403, 429, 503);

export function registerPatientAccessRoutes(app: FastifyInstance, service: PatientAccessService): void {
  app.decorate('patientSessions', {
    current: (request: FastifyRequest) => service.current(context(request)),
    shareState: (shareId: string) => service.shareState(shareId),
  });
  definePatientAccessChecks(app);
  registerSignInRoutes(app, service);
  registerSessionRoutes(app, service);

  // Ended sessions and old attempt records are deleted now and then (any process may do it).
  app.jobs.every(SWEEP_EVERY_MS, 'patient-access.ended-sessions', () => service.sweep());
}

/** Signing in: the session check, the date of birth (a patient's or a contact's) and the one-time code sent. */
function registerSignInRoutes(app: FastifyInstance, service: PatientAccessService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['patient-access'];

  api.get(
    '/api/patient-access/session',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Whether this browser is signed in to the booking (401 when not: sign in again)',
        querystring: SessionQuerySchema,
        response: { 200: SessionResponseSchema, ...errors },
      },
    },
    async (request) => {
      // One results sign-in per visit: the e-mail's result page and the patient portal's accept each other's session.
      const type = isResultSignInType(request.query.type) ? RESULT_SIGN_IN_TYPES : request.query.type;
      const session = await requirePatientSession(request, { bookingKey: request.query.bookingKey, type }, { signedOutIsNormal: true });
      return {
        isAuthenticated: true as const,
        bookingKey: session.bookingKey,
        type: session.type,
        roleTranslations: service.roleTranslations(),
      };
    },
  );

  api.post(
    '/api/patient-access/authenticate',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Anyone: sign in to a booking with the date of birth (and optionally the contact number); sets the session cookie. Past the per-address failure threshold it needs the x-captcha header (403 captcha_required) and slows down (429 with Retry-After)',
        body: AuthenticateRequestSchema,
        response: { 200: AuthenticateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { token, response } = await service.authenticate(request.body, context(request));
      void reply.header('set-cookie', sessionCookie(PATIENT_SESSION_COOKIE, token));
      return response;
    },
  );

  api.post(
    '/api/patient-access/shared',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "Anyone holding a result share link: sign in as the contact with the link's token and the patient's date of birth; the one-time code then goes to the contact. 410 share_revoked or share_expired once the share no longer stands",
        body: SharedSignInRequestSchema,
        response: { 200: AuthenticateResponseSchema, 410: ApiErrorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { token, response } = await service.authenticateShared(request.body, context(request));
      void reply.header('set-cookie', sessionCookie(PATIENT_SESSION_COOKIE, token));
      return response;
    },
  );

  api.post(
    '/api/patient-access/otp',
    {
      config: { access: 'sign-in-session' },
      schema: {
        tags,
        summary: 'Send a one-time password to the contact on file (needs the date-of-birth step)',
        body: SendOtpRequestSchema,
        response: { 202: SendOtpResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const response = await service.sendOtp(request.body.channel, context(request));
      return reply.code(202).send(response);
    },
  );
}

/** The code verified, the open page's keep-alive, and signing out. */
function registerSessionRoutes(app: FastifyInstance, service: PatientAccessService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['patient-access'];

  api.post(
    '/api/patient-access/otp/verify',
    {
      config: { access: 'sign-in-session' },
      schema: {
        tags,
        summary:
          'The browser that passed the date-of-birth step: check the one-time password; completes the sign-in under a new session cookie (x-captcha and slow-down as for authenticate)',
        body: VerifyOtpRequestSchema,
        response: { 200: SessionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await service.verifyOtp(request.body.code, context(request));
      void reply.header('set-cookie', sessionCookie(PATIENT_SESSION_COOKIE, result.token));
      return {
        isAuthenticated: true as const,
        bookingKey: result.bookingKey,
        type: result.type,
        roleTranslations: service.roleTranslations(),
      };
    },
  );

  // The open page's keep-alive ping (docs/rules/patient-access.md#keep-alive): resolving the session
  // slides its idle timer, as any signed-in request does; the 12-hour maximum still ends it.
  api.post(
    '/api/patient-access/keep-alive',
    {
      config: { access: 'patient-session' },
      schema: {
        tags,
        summary:
          "A fully signed-in patient session (any type, a contact's too): keeps it from the idle timeout while its page is open (the 12-hour maximum still ends it); 204, 401 when there is none",
        response: { 204: z.null(), ...errors },
      },
    },
    // The access check found the session, and resolving it slid its idle timer.
    async (_request, reply) => reply.code(204).send(null),
  );

  api.post(
    '/api/patient-access/logout',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Sign out: ends the session and clears its cookie', response: { 204: z.null(), 503: ApiErrorBodySchema } },
    },
    async (request, reply) => {
      await service.logout(context(request));
      return reply.code(204).header('set-cookie', clearedSessionCookie(PATIENT_SESSION_COOKIE)).send(null);
    },
  );
}
