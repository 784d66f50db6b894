import { registerDevOutboxRoutes } from './modules/notifications/dev-outbox-routes';
import { registerEmailPreviewRoutes } from './modules/notifications/preview-routes';
import { registerPatientAccessRoutes } from './modules/patient-access/routes';
import { createPatientAccessService } from './modules/patient-access/service';
import { registerStaffAccess } from './modules/staff-access/routes';
import { serverModule } from './server-module';

/** Patient sign-in: the session cookie, one-time codes, and the patient session checks the routes declare. */
export const patientAccessModule = serverModule('patient-access', ['platform'], (app) => {
  const { deps, configService, captcha, patientAccessRepository } = app.portal;
  const { db, clock, config } = deps;
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
});

/** Staff sign-in through the provider's identity provider; registered only when one is configured. */
export const staffAccessModule = serverModule('staff-access', ['platform'], (app) => {
  const { db, clock, identity } = app.portal.deps;
  if (identity !== undefined) registerStaffAccess(app, { db, clock, identity });
});

/** The development outbox (loopback only) and the staff e-mail preview. */
export const notificationsModule = serverModule('notifications', ['platform'], (app) => {
  const { db, clock, config } = app.portal.deps;
  registerDevOutboxRoutes(app, db, config.mailDevOutbox, clock);
  // E-mail preview for staff: the staff guard answers 401 when staff sign-in is not configured.
  registerEmailPreviewRoutes(app, { db, clock, publicUrl: config.publicUrl });
});
