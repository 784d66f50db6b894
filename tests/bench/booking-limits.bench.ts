// Booking limits benchmark: what the per-address and per-contact counters add to a hold or a
// booking (docs/rules/booking.md#booking-limits): HMACs of the address and contacts and one
// upsert of their day's counters, plus the confirmation-mail count inside the booking's
// transaction. PGlite always; PostgreSQL too when DATABASE_URL is set.
// Goal: p95 < 1 ms per request, so the limits never show in the booking's 50 ms budget.
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { createBookingLimiter, DEFAULT_BOOKING_LIMITS, type BookingClient } from '../../src-server/modules/booking/booking-limits';
import { createCaptcha } from '../../src-server/platform/captcha/captcha';
import { systemClock } from '../../src-server/platform/clock';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const WARM_UP = sized(200, 10);
const SAMPLES = sized(2000, 50);
const SECRET = 'bench-secret-0123456789abcdef';

/** A client address per index: every fifth request comes back from an address seen before (the update path). */
function client(index: number): BookingClient {
  const n = index % 5 === 0 ? Math.floor(index / 5) : index;
  return { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, captcha: undefined, exempt: false };
}

async function timed(run: (index: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < WARM_UP + SAMPLES; index += 1) {
    const started = performance.now();
    await run(index);
    if (index >= WARM_UP) samples.push(performance.now() - started);
  }
  return samples;
}

async function measure(engine: string, db: Database): Promise<GoalResult[]> {
  await migrate(db);
  const secret = () => Promise.resolve(SECRET);
  const limiter = createBookingLimiter({
    db,
    clock: systemClock,
    captcha: createCaptcha({ db, clock: systemClock, secret }),
    secret,
    limits: DEFAULT_BOOKING_LIMITS,
  });
  const holds = summarise(await timed((index) => limiter.admitHold(client(index))));
  const bookings = summarise(
    await timed((index) =>
      limiter.admitBooking(client(index), {
        email: `patient${index}@example.com`,
        contactNumber: String(400_000_000 + index).padStart(10, '0'),
      }),
    ),
  );
  // Timed inside the transaction: begin and commit belong to the booking, which has them anyway.
  // A whole booking pays both: its counts before the write, and the mail count inside it.
  const mailSamples: number[] = [];
  const bookingSamples: number[] = [];
  for (let index = 0; index < WARM_UP + SAMPLES; index += 1) {
    const email = `family${index % 500}@example.com`;
    const admitStarted = performance.now();
    await limiter.admitBooking(client(index), { email: `walk${index}@example.com` });
    const admitted = performance.now() - admitStarted;
    await db.transaction(async (tx) => {
      const started = performance.now();
      await limiter.confirmationMailAllowed(tx, email);
      const mail = performance.now() - started;
      if (index >= WARM_UP) {
        mailSamples.push(mail);
        bookingSamples.push(admitted + mail);
      }
    });
  }
  const mails = summarise(mailSamples);
  const whole = summarise(bookingSamples);
  const row = (name: string, summary: ReturnType<typeof summarise>): GoalResult => ({
    name,
    engine,
    measured: `p50 ${summary.p50} ms, p95 ${summary.p95} ms, p99 ${summary.p99} ms`,
    goal: 'p95 < 1 ms',
    met: summary.p95 < 1,
  });
  return [
    row('hold: count the client address (HMAC + one upsert)', holds),
    row('booking: count the address, e-mail and phone (HMACs + one upsert of 3 rows)', bookings),
    row('booking: count the confirmation mail inside the booking transaction', mails),
    row('booking: both, as one booking pays them', whole),
  ];
}

runBenchmark(async () => report('booking-limits', await onEachEngine(measure)));
