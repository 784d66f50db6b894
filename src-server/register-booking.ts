import { serverModule } from './server-module';
import { registerAppointmentFollowUps } from './register-follow-ups';
import { openScreeningReview } from './modules/screening-reviews/public';
import { createHl7Outbox, noHl7Outbox } from './platform/hl7/hl7-outbox';
import { registerAppointmentRoutes } from './modules/appointments/routes';
import { registerDayPlanRoutes } from './modules/appointments/day-plan-routes';
import { createAppointmentsService } from './modules/appointments/service';
import { createProviderCancel } from './modules/appointments/provider-cancel';
import { createProviderMove } from './modules/appointments/provider-move';
import { createStaffConsents, registerStaffConsentRoutes } from './modules/appointments/staff-consents';
import { AvailabilityStore } from './modules/availability/availability-store';
import { createAvailabilityRepository } from './modules/availability/repository';
import { createBookingRepository } from './modules/booking/repository';
import { registerBookingRoutes } from './modules/booking/routes';
import { createBookingService } from './modules/booking/service';
import { createSystemBooking } from './modules/booking/system-booking';
import { registerBookingRequestRoutes } from './modules/booking-requests/routes';
import { createBookingRequestsService } from './modules/booking-requests/service';
import { createPatientLookup, registerPatientLookupRoutes } from './modules/patient-lookup/public';
import { createCallbackService, registerCallbackRoutes } from './modules/callbacks/public';
import { createStaffBookingRequests, registerStaffBookingRequestRoutes } from './modules/staff-booking-requests/public';
import { lazySignedLinks } from './platform/signed-links';
import { createUnsubscribeService, registerUnsubscribeRoutes, UNSUBSCRIBE_LINK_TTL_MS } from './modules/unsubscribe/public';
import { registerQuestionnaireRoutes } from './modules/questionnaires/routes';
import { createQuestionnairesService } from './modules/questionnaires/service';
import { defineBookingAccessChecks } from './modules/booking-access/public';
/**
 * Booking and what follows from it, split from app.ts along its seam: the booking flow, the
 * patient's self-service on an appointment, the staff tools that book and work the queues,
 * callbacks, questionnaires and booking requests.
 */
export const bookingModule = serverModule('booking', ['platform', 'patient-access'], (app) => {
  const { captcha, secret, deps } = app.portal;
  const { db, clock, config } = deps;

  // Booking: the availability index is built when the server becomes ready (not on a
  // database without the booking schema, which some tests use) and kept current from then on.
  const availabilityRepository = createAvailabilityRepository(db);
  const availabilityStore = new AvailabilityStore(availabilityRepository, clock);
  // The one index of free times in this process, for every module that offers them (the FHIR API's slots).
  app.decorate('availabilityStore', availabilityStore);
  // HL7 v2 to the RIS (HL7_RIS_ADDRESS): bookings and cancellations queue their messages; main.ts sends them.
  const hl7 = config.hl7 === null ? noHl7Outbox : createHl7Outbox(config.hl7);
  const bookingService = createBookingService({
    db,
    hl7,
    openReview: openScreeningReview,
    repository: createBookingRepository(db),
    store: availabilityStore,
    clock,
    publicUrl: config.publicUrl,
    captcha,
    secret,
    ...(deps.bookingLimits === undefined ? {} : { limits: deps.bookingLimits }),
  });
  registerBookingRoutes(app, bookingService);
  // Who may read a booking's records: its patient, or staff (and the booking browser its confirmation).
  defineBookingAccessChecks(app, bookingService.receipts);
  // One-click unsubscribe: each mail's year-long signed link (own instance, same keys); app.outgoingMailPolicy for main.ts.
  const links = lazySignedLinks(config.imageViewer.signedLinkKeys ?? undefined, secret, clock, { maxTtlMs: UNSUBSCRIBE_LINK_TTL_MS });
  const unsubscribe = createUnsubscribeService({ db, clock, publicUrl: config.publicUrl, links, log: app.log });
  registerUnsubscribeRoutes(app, unsubscribe);
  // Self-service: behind the patient session guard; reschedules book through bookingService.
  const appointmentsService = createAppointmentsService({
    db,
    clock,
    booking: bookingService,
    store: availabilityStore,
    publicUrl: config.publicUrl,
    unsubscribeAddress: unsubscribe.unsubscribeAddress,
    hl7,
  });
  registerAppointmentRoutes(app, appointmentsService);
  // The day planned before arrival: timed steps, missing documents, the way there (docs/rules/day-plan.md).
  registerDayPlanRoutes(app, { db, clock });
  // The provider's own systems cancel one appointment at any time (the FHIR API's Appointment patch).
  app.decorate('cancelByProvider', createProviderCancel({ db, clock, store: availabilityStore, publicUrl: config.publicUrl, hl7 }));
  // The RIS moves a booking to another time (its SIU^S13); the appointments keep their ids.
  app.decorate('moveByProvider', createProviderMove({ db, clock, booking: bookingService, publicUrl: config.publicUrl }));
  // Staff read consent signatures (the drawn ones come from the kiosk).
  registerStaffConsentRoutes(app, createStaffConsents(db, clock));
  registerPatientLookupRoutes(app, createPatientLookup({ db, clock }));
  registerStaffBookingRequestRoutes(app, createStaffBookingRequests({ db, clock }));
  // The front desk's confirmation list: a clinic's day with the reminders' answers.
  registerCallbackRoutes(
    app,
    createCallbackService({
      db,
      clock,
      captcha,
      secret,
      publicUrl: config.publicUrl,
      warn: (message) => app.log.warn(message),
      ...(deps.callbackLimits === undefined ? {} : { limits: deps.callbackLimits }),
    }),
  );
  // Questionnaires: a cancel questionnaire cancels through the appointments module.
  const questionnairesService = createQuestionnairesService({
    db,
    clock,
    cancelAppointment: (bookingKey) => appointmentsService.cancel(bookingKey, {}),
  });
  registerQuestionnaireRoutes(app, questionnairesService, { db, secret, now: () => clock.now().getTime() });
  // The provider's own systems book through the same rules (the FHIR API's Appointment/$book).
  app.decorate('systemBooking', createSystemBooking({ booking: bookingService, questionnaires: questionnairesService, secret }));
  registerBookingRequestRoutes(app, createBookingRequestsService({ db, clock }), config.staffApiTokenSha256);
  app.addHook('onReady', async () => {
    if (await availabilityRepository.schemaReady().catch(() => false)) await availabilityStore.ensureLoaded();
  });
  const bookingSchemaReady = () => availabilityRepository.schemaReady();
  app.jobs.every(60_000, 'booking.expired-holds', () => bookingService.sweepExpiredHolds(), { onlyIf: bookingSchemaReady });
  app.jobs.every(60_000, 'booking.expired-limits', () => bookingService.sweepExpiredLimits(), { onlyIf: bookingSchemaReady });
  // Reminders and their answers, the front desk's list, the waiting list, screenings held for review.
  registerAppointmentFollowUps(app, { availabilityStore, hl7, bookingService, appointmentsService, bookingSchemaReady });
});
