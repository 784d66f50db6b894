import type { FastifyInstance } from 'fastify';
import { createReminders } from './modules/appointments/reminders';
import { createReminderReplies } from './modules/appointments/reminder-reply';
import { registerReminderReplyRoutes } from './modules/appointments/reminder-reply-routes';
import { createSmsReplies } from './modules/appointments/sms-replies';
import { createWaitlistOffers, createWaitlistService, registerWaitlistRoutes } from './modules/waitlist/public';
import { createStaffAppointments, registerStaffAppointmentRoutes } from './modules/staff-appointments/public';
import { createScreeningReviews, registerScreeningReviewRoutes } from './modules/screening-reviews/public';
import type { AppointmentsService } from './modules/appointments/service';
import type { AvailabilityStore } from './modules/availability/public';
import type { BookingService } from './modules/booking/public';
import type { Hl7Outbox } from './platform/hl7/hl7-outbox';
import { lazySignedLinks } from './platform/signed-links';

/**
 * What follows a booking until the day, split from register-booking.ts along its seam:
 * reminders and the patients' answers to them (mail link, SMS reply), the front desk's
 * confirmation list, the waiting list for earlier times, and screenings held for a radiographer's
 * review. Each runs a job every minute while the booking schema is there.
 */
export interface FollowUpParts {
  availabilityStore: AvailabilityStore;
  hl7: Hl7Outbox;
  bookingService: BookingService;
  appointmentsService: AppointmentsService;
  bookingSchemaReady: () => Promise<boolean>;
}

export function registerAppointmentFollowUps(app: FastifyInstance, parts: FollowUpParts): void {
  const { secret, deps } = app.portal;
  const { db, clock, config } = deps;
  const { availabilityStore, hl7, bookingService, appointmentsService, bookingSchemaReady } = parts;
  // Answers to reminders: the mail's signed link, and SMS replies through the provider's webhook.
  const replyLinks = lazySignedLinks(config.imageViewer.signedLinkKeys ?? undefined, secret, clock);
  const replies = createReminderReplies({
    db,
    clock,
    store: availabilityStore,
    publicUrl: config.publicUrl,
    hl7,
    links: replyLinks,
    log: app.log,
  });
  const smsReplies = createSmsReplies({
    db,
    clock,
    publicUrl: config.publicUrl,
    replies,
    country: config.smsDefaultCountry,
    answerBySms: config.sms !== null,
  });
  registerReminderReplyRoutes(app, { replies, sms: smsReplies }, config.smsInboundTokenSha256);
  // Reminders at the provider's times before each appointment (docs/rules/reminders.md), checked every minute.
  const reminders = createReminders({
    db,
    clock,
    publicUrl: config.publicUrl,
    sms: config.sms !== null,
    smsReplies: config.sms !== null && config.smsInboundTokenSha256.length > 0,
    smsCountry: config.smsDefaultCountry,
    links: replyLinks,
  });
  app.jobs.every(60_000, 'appointments.reminders', () => reminders.sweep(), { onlyIf: bookingSchemaReady });
  // The front desk's confirmation list, and its reminder sent again by hand.
  registerStaffAppointmentRoutes(app, createStaffAppointments({ db, clock }), (id) => reminders.remindNow(id));
  // The waiting list: freed times offered in turn to waiting patients (docs/rules/waitlist.md), checked every minute.
  const waitlist = createWaitlistService({
    db,
    clock,
    publicUrl: config.publicUrl,
    links: replyLinks,
    reschedule: (bookingKey, key, request) => appointmentsService.reschedule(bookingKey, key, request),
    log: app.log,
  });
  registerWaitlistRoutes(app, waitlist);
  const offers = createWaitlistOffers({
    db,
    clock,
    publicUrl: config.publicUrl,
    links: replyLinks,
    hold: (request, minutes) => bookingService.holdForOffer(request, minutes),
    releaseHold: (holdId) => bookingService.releaseHold(holdId),
    sms: config.sms !== null,
  });
  app.decorate('waitlistOffers', offers);
  app.jobs.every(60_000, 'waitlist.offers', () => offers.sweep(), { onlyIf: bookingSchemaReady });
  // Screenings held for a radiographer's review (docs/rules/screening-review.md); undecided ones expire, checked every minute.
  const screeningReviews = createScreeningReviews({ db, clock, store: availabilityStore, publicUrl: config.publicUrl, hl7 });
  registerScreeningReviewRoutes(app, screeningReviews);
  app.decorate('screeningReviews', screeningReviews);
  app.jobs.every(60_000, 'screening-review.expire', () => screeningReviews.expireDue(), { onlyIf: bookingSchemaReady });
}
