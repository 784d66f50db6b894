import { randomBytes } from 'node:crypto';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import type { Config } from './config';
import { migrationVersions } from './db/migrate';
import { createHealthRepository } from './modules/health/repository';
import { registerHealthRoutes } from './modules/health/routes';
import { registerConfigRoutes } from './modules/config/routes';
import type { createConfigService } from './modules/config/service';
import { registerEmbedRoutes } from './modules/embed/routes';
import { createPatientAccessRepository, type PatientAccessRepository } from './modules/patient-access/repository';
import { checkStaffAccess } from './modules/staff-access/public';
import { createCaptcha } from './platform/captcha/captcha';
import { registerCaptchaRoutes } from './platform/captcha/routes';
import type { Clock } from './platform/clock';
import { registerCompression } from './platform/compression';
import { registerErrorAnswers } from './platform/error-answers';
import { registerJobs } from './platform/jobs';
import { createMetrics } from './platform/metrics/metrics';
import { createMetricsRepository } from './platform/metrics/metrics-repository';
import { registerMetricsRoutes } from './platform/metrics/routes';
import { registerApiDocsRoutes, registerOpenApi } from './platform/plugins/api-docs';
import { registerCsrfGuard } from './platform/plugins/csrf-guard';
import { registerSecurityHeaders } from './platform/plugins/security-headers';
import { registerRequestIdHeader } from './platform/request-id';
import { registerRouteAccess } from './platform/route-access';
import { registerSecurityAudit } from './platform/security-audit';
import { registerTracing } from './platform/tracing/register-tracing';
import type { ServerDeps } from './server-deps';
import { serverModule } from './server-module';

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

/**
 * The platform every route stands on, in this order: the zod schema compilers, request ids, the metrics registry, background work, security headers, the audit
 * of refusals, the CSRF guard, route access, the OpenAPI generator, compression and the error
 * answers; then the routes of the platform itself (API docs, metrics, proof-of-work check, health,
 * configuration, embedding). It decorates app.portal with what every module after it uses, and app.metrics.
 */
export const platformModule = serverModule<{ deps: ServerDeps; configService: ReturnType<typeof createConfigService> }>(
  'platform',
  [],
  async (app, { deps, configService }) => {
    const { db, clock, config } = deps;
    // Routes validate and answer with the src-contract zod schemas.
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    // Every answer names its request id, and every log line of a request carries it (platform/request-id.ts).
    registerRequestIdHeader(app);
    // What /metrics reports, in this app's own registry; modules add theirs (platform/metrics).
    const metrics = createMetrics({
      db,
      repository: createMetricsRepository(db),
      onCollectError: (error) => app.log.warn({ err: error }, '[metrics] the outbox counts could not be read'),
    });
    app.decorate('metrics', metrics);
    // A span per request and per statement, only when an OTLP endpoint is configured (platform/tracing).
    await registerTracing(app, config.tracing, config.appVersion);
    // Background work is declared by the modules as they register (platform/jobs.ts).
    registerJobs(app, metrics.jobFinished);
    registerSecurityHeaders(app, { sources: () => configService.securitySources() });
    // Refused requests are audited naming the client as the sign-in audit does (same secret).
    const patientAccessRepository = createPatientAccessRepository(db);
    const secret = serverSecret(config, patientAccessRepository, clock);
    registerSecurityAudit(app, { db, clock, sessionCookieName: PATIENT_SESSION_COOKIE, secret });
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
    // One error shape for everything, and the web app for every page no route answers.
    registerErrorAnswers(app, {
      webRoot: config.webRoot,
      sourceMapsPublic: config.sourceMapsPublic,
      bootstrap: () => configService.getBootstrap(),
    });

    const captcha = createCaptcha({ db, clock, secret, ...(deps.captchaWork === undefined ? {} : { work: deps.captchaWork }) });
    app.decorate('portal', { deps, configService, captcha, secret, patientAccessRepository });
    registerApiDocsRoutes(app);
    registerMetricsRoutes(app, metrics, config.metricsTokenSha256);
    registerCaptchaRoutes(app, captcha);
    registerHealthRoutes(app, createHealthRepository(db), { version: config.appVersion, expectedMigrations: () => migrationVersions() });
    registerConfigRoutes(app, configService);
    registerEmbedRoutes(app, { sources: () => configService.securitySources(), publicUrl: config.publicUrl });
  },
);
