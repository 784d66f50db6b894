import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { createIdempotencyRepository } from '../../platform/idempotency-repository';
import type { Captcha } from '../../platform/captcha/captcha';
import type { AvailabilityStore } from '../availability/public';
import { createBookingReceipts } from '../booking-access/public';
import { createAppointmentWrites, type OpenScreeningReview } from './appointment-writes';
import { createBookingLimiter, DEFAULT_BOOKING_LIMITS, type BookingLimits } from './booking-limits';
import { createBookingRequestWrites } from './booking-request-writes';
import { createCatalogue } from './catalogue';
import { createResourceBooker } from './first-free-resource';
import { loadFormDetails } from './form-details';
import { createHolds } from './holds';
import { createBookingReads } from './read-service';
import type { BookingRepository } from './repository';
import { noHl7Outbox, type Hl7Outbox } from '../../platform/hl7/hl7-outbox';

/**
 * Booking rules (docs/rules/booking.md): which clinics offer the chosen exams, which times are
 * free, holding a time, booking it (once, whatever the retries), and booking requests for
 * enquiry-only exams. Free times come from the in-memory index (the read side, read-service.ts);
 * every write goes through the database, where the exclusion constraint decides races, and is
 * applied to the index right after it commits (the write side, around first-free-resource.ts).
 */

export interface BookingServiceDeps {
  db: Database;
  repository: BookingRepository;
  store: AvailabilityStore;
  clock: Clock;
  publicUrl: string;
  /** The proof-of-work check asked for past the first threshold of a booking limit. */
  captcha: Captcha;
  /** The server secret; client addresses and contacts are counted by their HMAC with it. */
  secret: () => Promise<string>;
  /** Default DEFAULT_BOOKING_LIMITS; tests use small ones. */
  limits?: BookingLimits;
  /** The RIS's HL7 messages (HL7_RIS_ADDRESS); default none. */
  hl7?: Hl7Outbox;
  /** Opens the screening review of a booking held for one (screening-reviews' openScreeningReview; appointment-writes.ts says why it is given). */
  openReview: OpenScreeningReview;
}

export function createBookingService(deps: BookingServiceDeps) {
  const { db, repository, store, clock, publicUrl } = deps;
  const catalogue = createCatalogue({ repository, store });
  const idempotency = createIdempotencyRepository(db);
  const booker = createResourceBooker({ db, repository, store, clock });
  const limiter = createBookingLimiter({
    db,
    clock,
    captcha: deps.captcha,
    secret: deps.secret,
    limits: deps.limits ?? DEFAULT_BOOKING_LIMITS,
  });
  return {
    ...createBookingReads({ repository, store, clock, catalogue }),
    ...createHolds({ db, repository, store, clock, catalogue, booker, limiter }),
    ...createAppointmentWrites({
      db,
      repository,
      idempotency,
      store,
      clock,
      catalogue,
      booker,
      publicUrl,
      limiter,
      hl7: deps.hl7 ?? noHl7Outbox,
      openReview: deps.openReview,
    }),
    ...createBookingRequestWrites({ db, repository, idempotency, clock, catalogue, limiter, publicUrl }),
    /** The provider's insurance types, ethnicity answers and questions (form-details.ts). */
    formDetails: () => loadFormDetails(db),
    /** The booking browser's receipt: it may read the confirmation back (booking-access/receipt.ts). */
    receipts: createBookingReceipts(deps.secret, clock),
    /** Deletes booking-limit counts of days that have ended (the periodic sweep in app.ts). */
    sweepExpiredLimits: (): Promise<number> => limiter.sweep(),
  };
}

export type BookingService = ReturnType<typeof createBookingService>;
