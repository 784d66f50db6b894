import { Counter, type Registry } from 'prom-client';

/**
 * portal_bookings_total{kind, outcome} on the app's /metrics (docs/server.md#metrics-and-health):
 * each answer to POST /api/booking/appointments (kind appointment, staff bookings included) and
 * POST /api/booking/booking-requests (kind booking_request), by what it meant:
 *
 * - booked: 201 (a retry with the same Idempotency-Key, answered from its record, counts again);
 * - conflict: 409, the time was taken meanwhile, the hold expired, or the same booking is in progress;
 * - limited: 403 (a captcha answer is needed) or 429, the booking limits;
 * - invalid: any other 4xx;
 * - failed: 5xx (503 while the database is away).
 */

export type BookingKind = 'appointment' | 'booking_request';

function outcomeOf(statusCode: number): string {
  if (statusCode === 201) return 'booked';
  if (statusCode === 409) return 'conflict';
  if (statusCode === 403 || statusCode === 429) return 'limited';
  if (statusCode >= 500) return 'failed';
  return statusCode >= 400 ? 'invalid' : 'booked';
}

export function createBookingMetrics(registry: Registry) {
  const bookings = new Counter({
    name: 'portal_bookings_total',
    help: 'Answers to booking attempts, by kind (appointment, booking_request) and outcome (booked, conflict, limited, invalid, failed).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  return {
    /** A booking route's onResponse hook: counts its answer. */
    counter:
      (kind: BookingKind) =>
      async (_request: unknown, reply: { statusCode: number }): Promise<void> => {
        bookings.inc({ kind, outcome: outcomeOf(reply.statusCode) });
      },
  };
}
