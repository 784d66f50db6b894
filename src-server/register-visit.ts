import { createReferringDoctorsService, registerReferringDoctorRoutes } from './modules/referring-doctors/public';
import { serverModule } from './server-module';
import { join } from 'node:path';
import { createAttachmentsService, createUploadBudget, registerAttachmentRoutes } from './modules/attachments/public';
import { startAttachmentJobs } from './modules/attachments/jobs';
import { createCheckInService, registerCheckInRoutes } from './modules/check-in/public';
import { createKiosksService, registerKioskRoutes } from './modules/kiosks/public';
import { feedbackAnswered } from './modules/questionnaires/public';
import { noVirusScanner } from './platform/virus-scan';
/**
 * The visit: the documents a booking needs, the check-in form handed to the clinic's RIS (with
 * its referring-doctor search), and the kiosks in the clinics' waiting rooms.
 */
export const visitModule = serverModule('visit', ['platform', 'patient-access', 'booking'], async (app) => {
  const { captcha, secret, deps } = app.portal;
  const { db, clock, config } = deps;

  // Attachments: received and re-encoded under DATA_DIR, stored in deps.storage.
  const attachmentsService = createAttachmentsService({
    db,
    clock,
    storage: deps.storage,
    scanner: deps.scanner ?? noVirusScanner,
    workDir: join(config.dataDir, 'upload-work'),
    // Uploads under temporary keys: per client address, proof-of-work after a few, and all together.
    budget: createUploadBudget({ db, clock, captcha, secret }),
  });
  await registerAttachmentRoutes(app, attachmentsService);
  startAttachmentJobs(app, {
    db,
    service: attachmentsService,
    storage: deps.storage,
    workDir: join(config.dataDir, 'upload-work'),
    // PGlite holds the DATA_DIR lock, so with folder storage no other server touches these files.
    exclusiveStorage: config.databaseUrl === null && deps.storage.kind === 'folder',
  });
  // Check-in: the form and the check-in are handed to the clinic's RIS by the RIS worker (platform/ris/, started in main.ts).
  const checkInService = createCheckInService({ db, clock });
  registerCheckInRoutes(app, checkInService);
  // Kiosks: enrolled by kiosk administrators; at the kiosk a patient is found, signs in with a code, and checks in.
  const kiosksService = createKiosksService({
    db,
    clock,
    secret,
    checkInOpen: (appointment) => checkInService.kioskAvailability(appointment.booking_key, appointment.id),
    silentMinutes: config.kioskSilentMinutes,
    feedbackAnswered: (bookingKey) => feedbackAnswered(db, bookingKey),
  });
  registerKioskRoutes(app, kiosksService, (bookingKey, appointmentId, kioskName) =>
    checkInService.kioskCheckIn(bookingKey, appointmentId, kioskName),
  );
  // The check-in form's referring-doctor search (trigram index, migration 0013).
  registerReferringDoctorRoutes(app, createReferringDoctorsService({ db }), { db, secret, now: () => clock.now().getTime() });
});
