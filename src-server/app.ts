import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '@contract/errors';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { CONTROL_CHARACTER_MESSAGE } from '@contract/api/text';
import type { Config } from './config';
import { isDatabaseUnavailableError, type Database } from './db/connection';
import type { BookingLimits } from './modules/booking/booking-limits';
import { createConfigRepository } from './modules/config/repository';
import { registerConfigRoutes } from './modules/config/routes';
import { createConfigService } from './modules/config/service';
import { createHealthRepository } from './modules/health/repository';
import { registerHealthRoutes } from './modules/health/routes';
import { registerEmbedRoutes } from './modules/embed/routes';
import { registerDevOutboxRoutes } from './modules/notifications/dev-outbox-routes';
import { registerEmailPreviewRoutes } from './modules/notifications/preview-routes';
import { createPatientAccessRepository, type PatientAccessRepository } from './modules/patient-access/repository';
import { registerPatientAccessRoutes } from './modules/patient-access/routes';
import { type CallbackLimits } from './modules/callbacks/public';
import { registerBookingArea } from './register-booking';
import { registerResultsArea } from './register-results';
import { registerVisitArea } from './register-visit';
import { registerJobs } from './platform/jobs';
import { registerRouteAccess } from './platform/route-access';
import { createReferringDoctorsService, registerReferringDoctorRoutes } from './modules/referring-doctors/public';
import { createPatientAccessService } from './modules/patient-access/service';
import { registerStaffAccess, type StaffIdentityOptions } from './modules/staff-access/routes';
import { checkStaffAccess } from './modules/staff-access/public';
import { createCaptcha, type CaptchaWork } from './platform/captcha/captcha';
import { registerCaptchaRoutes } from './platform/captcha/routes';
import type { Clock } from './platform/clock';
import { isAppError, retryAfterSeconds } from './platform/errors';
import { isMultipartParseError, MALFORMED_MULTIPART } from './platform/multipart-errors';
import { fastifyLoggerOptions, type LoggerOptions } from './platform/logger';
import type { Mailer } from './platform/mailer';
import { registerApiDocsRoutes, registerOpenApi } from './platform/plugins/api-docs';
import { registerCsrfGuard } from './platform/plugins/csrf-guard';
import { registerSecurityAudit } from './platform/security-audit';
import { refusalRedirect } from './platform/served-file';
import { registerCompression } from './platform/compression';
import { registerSecurityHeaders, setSecurityHeaders } from './platform/plugins/security-headers';
import type { FileStorage } from './platform/storage';
import { type VirusScanner } from './platform/virus-scan';
import { createWebAppHandler } from './platform/web-app';
import { isApiPath } from './platform/api-path';
/**
 * buildServer(deps) → a Fastify instance with every I/O dependency injected (docs/server.md#buildserverdeps):
 * tests build it on a real PGlite or PostgreSQL and call inject(); main.ts builds it on the
 * configured database and listens. Order: platform (headers, docs generator, error handling)
 * → modules (config, health) → the web app for every other page.
 */

export interface ServerDeps {
  db: Database;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** Where attachments' bytes live: a folder under DATA_DIR, or S3-compatible storage (docs/rules/attachments.md#storage). */
  storage: FileStorage;
  /** ClamAV when CLAMAV_SOCKET is set; default none (docs/rules/attachments.md#virus-scanning). */
  scanner?: VirusScanner;
  logger: LoggerOptions;
  /** How much work a proof-of-work challenge asks for; tests make it cheap. Default DEFAULT_CAPTCHA_WORK. */
  captchaWork?: CaptchaWork;
  /** Booking limits per client and contact; default DEFAULT_BOOKING_LIMITS (docs/rules/booking.md#booking-limits). */
  bookingLimits?: BookingLimits;
  /** Callback request limits per client and phone number; default DEFAULT_CALLBACK_LIMITS (docs/rules/callbacks.md#limits). */
  callbackLimits?: CallbackLimits;
  /**
   * Staff sign-in through the provider's identity provider (docs/rules/staff-access.md): issuer,
   * JWKS URI, audience and the claim-to-role mapping. Without it the staff-access routes are not
   * registered and every staff guard answers 401.
   */
  identity?: StaffIdentityOptions;
  /**
   * The local demo identity provider inside the portal (src-server/dev-identity/provider.ts,
   * /dev/idp): it answers its own requests before Fastify sees them, as a separate application on
   * the same origin with its own forms, cookies and headers; false hands a request on.
   */
  identityMount?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

const GENERIC_MESSAGES: Record<number, { code: ErrorCode; message: string }> = {
  400: { code: 'bad_request', message: 'The request is not valid.' },
  401: { code: 'unauthorized', message: 'You need to sign in first.' },
  403: { code: 'forbidden', message: 'You may not do that.' },
  404: { code: 'not_found', message: 'Not found.' },
  405: { code: 'method_not_allowed', message: 'This method is not allowed here.' },
  413: { code: 'payload_too_large', message: 'The request body is too large.' },
  415: { code: 'unsupported_media_type', message: 'This content type is not accepted here.' },
  429: { code: 'too_many_requests', message: 'Too many requests; try again later.' },
  503: { code: 'service_unavailable', message: 'The service is unavailable right now; try again shortly.' },
};
/** Retry-After for a 429 that names no wait of its own (one from a Fastify plugin). */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
const INTERNAL: ApiErrorBody = { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' };

/** Maps any error to a status and a body that is safe to show: no stack, SQL or paths. */
function toErrorResponse(error: FastifyError | Error): { status: number; body: ApiErrorBody } {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      body: {
        code: 'validation_failed',
        // Control characters get their own message, so a form showing the message says what to fix.
        message: error.validation.some((issue) => issue.message === CONTROL_CHARACTER_MESSAGE)
          ? CONTROL_CHARACTER_MESSAGE
          : 'Some values in the request are not valid.',
        details: error.validation.map((issue) => ({
          in: issue.instancePath === '' ? error.validationContext : `${error.validationContext}${issue.instancePath}`,
          message: issue.message,
        })),
      },
    };
  }
  if (isAppError(error)) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
    };
  }
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, body: { code: 'invalid_json', message: 'The request body is not valid JSON.' } };
  }
  // A multipart body that cannot be parsed (no boundary, cut short): 400, whichever route read it.
  if (isMultipartParseError(error)) return { status: 400, body: MALFORMED_MULTIPART };
  if (isResponseSerializationError(error)) return { status: 500, body: INTERNAL };
  if (isDatabaseUnavailableError(error)) {
    return { status: 503, body: GENERIC_MESSAGES[503] ?? INTERNAL };
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  // Fastify's own 4xx errors get a fixed message: theirs can quote the URL (FST_ERR_BAD_URL).
  if (status >= 400 && status < 500) {
    const generic = GENERIC_MESSAGES[status] ?? GENERIC_MESSAGES[400];
    if (generic !== undefined) return { status, body: generic };
  }
  return { status: 500, body: INTERNAL };
}

/**
 * The key server-side HMACs derive from: SESSION_SECRET, else one random secret the database
 * keeps (made on first use; concurrent first uses agree on the first insert).
 */
function serverSecret(config: Config, repository: PatientAccessRepository, clock: Clock): () => Promise<string> {
  if (config.sessionSecret !== null) {
    const secret = config.sessionSecret;
    return () => Promise.resolve(secret);
  }
  let stored: Promise<string> | null = null;
  return () => {
    stored ??= repository.secret(randomBytes(32).toString('hex'), clock.now()).catch((error: unknown) => {
      stored = null;
      throw error;
    });
    return stored;
  };
}

/** The Fastify instance: its logger, proxies, limits, closing, and the answer to a URL no route can read. */
function createFastify(deps: ServerDeps, configService: ReturnType<typeof createConfigService>): FastifyInstance {
  const { config } = deps;
  const identityMount = deps.identityMount;
  const app = Fastify({
    ...(identityMount === undefined
      ? {}
      : {
          serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
            createServer((request, response) => {
              if (!identityMount(request, response)) handler(request, response);
            }),
        }),
    logger: fastifyLoggerOptions(deps.logger),
    // request.ip is the X-Forwarded-For client only when the direct peer is a configured proxy (TRUST_PROXY).
    trustProxy: config.trustProxy.length === 0 ? false : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Finish in-flight requests on close, but do not let idle keep-alive sockets hold it open.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // A URL that cannot be decoded fails before routing, so no hook runs: answer it here, with
    // the same headers and error shape as everything else, and without echoing the URL back.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
      const body: ApiErrorBody = GENERIC_MESSAGES[status] ?? { code: 'bad_request', message: 'The request is not valid.' };
      void configService.securitySources().then((sources) => {
        reply.header('content-type', 'application/json; charset=utf-8');
        if (status === 429) reply.header('retry-after', String(DEFAULT_RETRY_AFTER_SECONDS));
        setSecurityHeaders(reply, request.url, sources, '');
        reply.header('cache-control', 'no-store');
        void reply.code(status).send(body);
      });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

/**
 * The platform every route stands on, in this order: background work, security headers, the audit
 * of refusals, the CSRF guard, route access, the OpenAPI generator and compression.
 */
async function registerPlatform(
  app: FastifyInstance,
  deps: ServerDeps,
  configService: ReturnType<typeof createConfigService>,
): Promise<{ secret: () => Promise<string>; patientAccessRepository: PatientAccessRepository }> {
  const { db, clock, config } = deps;
  // Background work is declared by the modules as they register (platform/jobs.ts).
  registerJobs(app);
  registerSecurityHeaders(app, { sources: () => configService.securitySources() });
  // Refused requests are audited naming the client as the sign-in audit does (same secret).
  const patientAccessRepository = createPatientAccessRepository(db);
  const secret = serverSecret(config, patientAccessRepository, clock);
  registerSecurityAudit(app, {
    db,
    clock,
    sessionCookieName: PATIENT_SESSION_COOKIE,
    secret,
  });
  registerCsrfGuard(app, {
    publicOrigin: new URL(config.publicUrl).origin,
    sessionCookieNames: [PATIENT_SESSION_COOKIE, STAFF_SESSION_COOKIE],
  });
  // Before any route, after the CSRF guard: every route declares who may call it, and one hook checks it (platform/route-access.ts).
  registerRouteAccess(app);
  // Staff routes exist with or without staff sign-in; without it, each answers 401.
  app.defineAccessCheck('staff-session', checkStaffAccess);
  await registerOpenApi(app, config.appVersion);
  await registerCompression(app);
  return { secret, patientAccessRepository };
}

/** The one error handler, and the not-found handler: the web app for pages, a JSON 404 for /api. */
function registerErrorAnswers(app: FastifyInstance, config: Config, configService: ReturnType<typeof createConfigService>): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorResponse(error);
    // 507 is a deliberate refusal (a storage budget is full; its warning was logged when it filled), not a failure.
    if (status >= 500 && status !== 507) {
      request.log.error({ err: error, statusCode: status }, 'request failed');
    } else {
      // Only the code: client error messages can quote what was sent (names, dates of birth).
      request.log.info({ code: body.code, statusCode: status }, 'request rejected');
    }
    // Headers a handler set for a success (an image's cache lifetime) do not apply to an error.
    reply.removeHeader('cache-control').removeHeader('etag').removeHeader('content-length');
    // Every 429 says when to come back: the limit's own wait, else (a plugin's 429) a default.
    const wait = retryAfterSeconds(error) ?? (status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : null);
    if (wait !== null) reply.header('retry-after', String(wait));
    const page = refusalRedirect(request, status, body.code);
    if (page !== null) return reply.header('cache-control', 'no-store').redirect(page, 303);
    return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(body);
  });

  const webApp = createWebAppHandler({
    webRoot: config.webRoot,
    sourceMapsPublic: config.sourceMapsPublic,
    bootstrap: () => configService.getBootstrap(),
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url;
    if (!isApiPath(path) && (request.method === 'GET' || request.method === 'HEAD')) {
      await webApp(request, reply);
      return;
    }
    const body: ApiErrorBody = isApiPath(path)
      ? { code: 'route_not_found', message: `There is no API operation ${request.method} at this path.` }
      : { code: 'method_not_allowed', message: 'Pages accept only GET.' };
    if (!isApiPath(path)) reply.header('allow', 'GET, HEAD');
    await reply.code(isApiPath(path) ? 404 : 405).send(body);
  });
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const { db, clock, config } = deps;
  // Created before the app so Fastify's framework-error handler below can use it.
  const configService = createConfigService({
    repository: createConfigRepository(db),
    config,
    clock,
    ...(deps.identity?.browser === undefined ? {} : { browserSignIn: deps.identity.browser }),
    onSecuritySourcesError: (error) =>
      app.log.warn({ err: error }, '[security-headers] could not read embedding origins; using the last known ones'),
  });
  const app = createFastify(deps, configService);

  const { secret, patientAccessRepository } = await registerPlatform(app, deps, configService);

  // One error shape for everything, and the web app for every page no route answers.
  registerErrorAnswers(app, config, configService);

  registerApiDocsRoutes(app);
  const captcha = createCaptcha({
    db,
    clock,
    secret,
    ...(deps.captchaWork === undefined ? {} : { work: deps.captchaWork }),
  });
  registerCaptchaRoutes(app, captcha);
  registerHealthRoutes(app, createHealthRepository(db), config.appVersion);
  registerConfigRoutes(app, configService);
  registerEmbedRoutes(app, { sources: () => configService.securitySources(), publicUrl: config.publicUrl });

  // Booking and self-service (register-booking.ts); documents, check-in and kiosks (register-visit.ts).
  const area = { deps, captcha, secret };
  registerBookingArea(app, area);
  await registerVisitArea(app, area);
  // Results, their images and the referring doctors' pages (register-results.ts).
  registerResultsArea(app, { db, clock, config, storage: deps.storage, secret, configService });
  // The check-in form's referring-doctor search (trigram index, migration 0013).
  registerReferringDoctorRoutes(app, createReferringDoctorsService({ db }), () => clock.now().getTime());
  await registerDevOutboxRoutes(app, db, config.mailDevOutbox);
  // E-mail preview for staff: the staff guard answers 401 when staff sign-in is not configured.
  registerEmailPreviewRoutes(app, { db, clock, publicUrl: config.publicUrl });

  // Patient sign-in: the session cookie, OTPs, and the guard other modules call.
  registerPatientAccessRoutes(
    app,
    createPatientAccessService({
      db,
      repository: patientAccessRepository,
      clock,
      sessionSecret: config.sessionSecret,
      smsConfigured: config.sms !== null,
      captcha,
      settings: async () => {
        const { app: appConfig, radiology } = await configService.getBootstrap();
        return { otpRequired: appConfig.otpRequired, otpResendSeconds: appConfig.otpResendSeconds, providerName: radiology.name };
      },
    }),
  );

  // Staff sign-in: only when an identity provider is given.
  if (deps.identity !== undefined) registerStaffAccess(app, { db, clock, identity: deps.identity });

  return app;
}
