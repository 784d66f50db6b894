import { servesDemoProvider } from './db/seed/demo-marker';
import { registerDemoPacsRoutes } from './dev-pacs/routes';
import { createQuickReport, registerQuickReportRoutes } from './modules/quick-report/public';
import { createReferrerFeedback, registerReferrerFeedbackRoutes } from './modules/referrer-feedback/public';
import { createReferrerReports, registerReferrerReportRoutes } from './modules/referrer-reports/public';
import { createResultShares, registerResultShareRoutes } from './modules/result-shares/public';
import {
  createImageGeneration,
  createImageViewer,
  createPatientResults,
  createReferrerNotice,
  createReleaseNotices,
  createResultDelivery,
  registerPatientResultRoutes,
  registerResultRoutes,
} from './modules/results/public';
import { lazySignedLinks } from './platform/signed-links';
import { serverModule } from './server-module';

/**
 * The results area's routes and sweeps: the reports the RIS
 * delivers, the patient's result page and images, the referring doctor's list, quick report and
 * feedback, sharing, the release e-mails and the demo PACS. They share one signed-link service.
 */
export const resultsModule = serverModule('results', ['platform', 'patient-access'], (app) => {
  const { secret, configService, deps } = app.portal;
  const { db, clock, config } = deps;
  // Results: finalised reports delivered by the provider's RIS and PACS (machine token); the
  // patient reads them after a results sign-in and opens the images with a signed link (imsec).
  const signedLinks = lazySignedLinks(config.imageViewer.signedLinkKeys ?? undefined, secret, clock);
  // An image viewer link (imsec, a demo viewer token) is itself the credential: it may come in the
  // query or the body, so the service verifies it before it reads anything and answers 403 without
  // a live one (the route matrix proves it, tests/server/route-access.test.ts). No session opens these routes.
  app.defineAccessCheck('image-viewer-link', async () => undefined);
  const providerName = async () => (await configService.getBootstrap()).radiology.name;
  const referrerNotice = createReferrerNotice({ clock, publicUrl: config.publicUrl, providerName, signedLinks });
  const servesDemo = () => servesDemoProvider(db);
  const generation = createImageGeneration({ db, clock, servesDemo });
  registerResultRoutes(
    app,
    { delivery: createResultDelivery({ db, clock, storage: deps.storage, referrerNotice }), generation },
    config.integrationApiTokenSha256,
  );
  registerPatientResultRoutes(
    app,
    createPatientResults({ db, clock, storage: deps.storage, signedLinks }),
    createImageViewer({
      db,
      clock,
      signedLinks,
      config: config.imageViewer,
      servesDemo,
      settleGeneration: generation.settle,
      imageState: generation.state,
    }),
  );
  // The referring doctor's list of their patients' reports (referrer role), each with a referrer imsec.
  const referrerReports = createReferrerReports({ db, clock, signedLinks });
  registerReferrerReportRoutes(app, referrerReports);
  // The referring doctor's quick report: the report-ready mail's link (a referrer imsec) opens it;
  // a signed-in referrer's opening marks the report read in their list.
  registerQuickReportRoutes(
    app,
    createQuickReport({
      db,
      clock,
      storage: deps.storage,
      signedLinks,
      config: config.imageViewer,
      generation,
      markOpened: referrerReports.markOpened,
    }),
  );
  // The results e-mail goes out once a report's release time has come (checked at start and every 15 s).
  const releaseNotices = createReleaseNotices({
    db,
    clock,
    publicUrl: config.publicUrl,
    providerName,
  });
  app.jobs.every(15_000, 'results.release-notices', () => releaseNotices.sweep(), { runAtStart: true });
  // Sharing a result or history with a contact (e-mail or SMS through the outboxes).
  registerResultShareRoutes(
    app,
    createResultShares({
      db,
      clock,
      storage: deps.storage,
      publicUrl: config.publicUrl,
      smsConfigured: config.sms !== null,
      signedLinks,
      settings: async () => {
        const { app: appConfig, radiology } = await configService.getBootstrap();
        return { providerName: radiology.name, noteMaxLength: appConfig.shareNoteMaxLength };
      },
    }),
  );
  // Report-quality feedback by the referring doctor (docs/rules/referrers.md#report-quality-feedback).
  const feedbackEnabled = async () => (await configService.getBootstrap()).app.referrerReportQualityFeedbackEnabled;
  registerReferrerFeedbackRoutes(app, createReferrerFeedback({ db, clock, signedLinks, enabled: feedbackEnabled }));
  // The demo PACS viewer (the stand-in for a provider's image viewer): opens only demo viewer links this server signed.
  registerDemoPacsRoutes(app, { signedLinks });
});
