import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { createIdempotencyRepository } from '../../platform/idempotency';
import type { AvailabilityStore } from '../availability/public';
import { createAppointmentWrites } from './appointment-writes';
import { createBookingRequestWrites } from './booking-request-writes';
import { createCatalogue } from './catalogue';
import { createResourceBooker } from './first-free-resource';
import { createHolds } from './holds';
import { createBookingReads } from './read-service';
import type { BookingRepository } from './repository';

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
}

export function createBookingService(deps: BookingServiceDeps) {
  const { db, repository, store, clock, publicUrl } = deps;
  const catalogue = createCatalogue({ repository, store });
  const idempotency = createIdempotencyRepository(db);
  const booker = createResourceBooker({ db, repository, store, clock });
  return {
    ...createBookingReads({ repository, store, clock, catalogue }),
    ...createHolds({ db, repository, store, clock, catalogue, booker }),
    ...createAppointmentWrites({ db, repository, idempotency, store, clock, catalogue, booker, publicUrl }),
    ...createBookingRequestWrites({ db, repository, idempotency, clock, catalogue }),
  };
}

export type BookingService = ReturnType<typeof createBookingService>;
