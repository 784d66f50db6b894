// Mail outbox benchmark: what queueing a booking confirmation adds to a booking transaction
// (render text + HTML + .ics, insert the row), and how fast the worker drains the outbox to a
// real SMTP server on loopback. PGlite always; PostgreSQL too when DATABASE_URL is set.
// Goals: queueing p99 <= 5 ms (a tenth of the booking's 50 ms budget; timed inside the
// transaction, whose begin and commit the booking pays anyway); draining >= 100 mails/s.
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { queueBookingConfirmation, type BookingConfirmation } from '../../src-server/modules/notifications/booking-confirmation';
import { systemClock } from '../../src-server/platform/clock';
import { createSmtpMailer } from '../../src-server/platform/mailer';
import { createOutboxWorker } from '../../src-server/platform/outbox/outbox-worker';
import { collectingLogger, smtpConfigFor, startTestSmtpServer } from '../server/helpers/test-smtp-server';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const WARM_UP = sized(100, 10);
const SAMPLES = sized(1000, 50);
const DRAIN = sized(500, 20);

function confirmation(index: number): BookingConfirmation {
  const start = Date.UTC(2026, 5, 1, 0, 0) + index * 15 * 60_000;
  return {
    bookingKey: `BenchKey${String(index).padStart(14, '0')}`,
    patient: { title: 'Mx', firstName: 'Bench', lastName: `Patient ${index}`, email: `bench${index}@example.com` },
    clinic: { name: 'Sydney CBD Imaging', address: '1 George St, Sydney NSW 2000', phone: '02 9000 0000', timeZone: 'Australia/Sydney' },
    appointments: [
      {
        examName: 'MRI Brain',
        modalityName: 'MRI',
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 45 * 60_000).toISOString(),
        preparationNotes: 'Remove all metal, including jewellery and hair clips.\nDo not eat for 4 hours before the scan.',
      },
      {
        examName: 'CT Chest',
        modalityName: 'CT',
        startsAt: new Date(start + 45 * 60_000).toISOString(),
        endsAt: new Date(start + 65 * 60_000).toISOString(),
      },
    ],
    walkInExam: { name: 'X-ray Chest', prepTime: 10, minutesPrior: 15 },
    staffBooking: false,
  };
}

async function measure(engine: string, db: Database): Promise<GoalResult[]> {
  await migrate(db);
  const options = { publicUrl: 'https://portal.example.com', providerName: 'Demo Radiology', clock: systemClock };
  const samples: number[] = [];
  for (let index = 0; index < WARM_UP + SAMPLES; index += 1) {
    // Timed inside the transaction: begin and commit belong to the booking, which has them anyway.
    await db.transaction(async (tx) => {
      const started = performance.now();
      await queueBookingConfirmation(tx, confirmation(index), options);
      if (index >= WARM_UP) samples.push(performance.now() - started);
    });
  }
  const queued = summarise(samples);
  await db.exec('delete from outbox_mail');

  for (let index = 0; index < DRAIN; index += 1) await queueBookingConfirmation(db, confirmation(index), options);
  const smtp = await startTestSmtpServer(0);
  const mailer = createSmtpMailer(smtpConfigFor(smtp.port));
  const worker = createOutboxWorker({ db, mailer, clock: systemClock, logger: collectingLogger(), pollMs: 1000, maxAttempts: 3 });
  const started = performance.now();
  const result = await worker.runOnce();
  const seconds = (performance.now() - started) / 1000;
  await mailer.close();
  await smtp.stop();
  if (result.sent !== DRAIN || smtp.received.length !== DRAIN)
    throw new Error(`drained ${result.sent}, received ${smtp.received.length} of ${DRAIN}`);
  const perSecond = Math.round(DRAIN / seconds);
  return [
    {
      name: 'queue a booking confirmation (render + insert, inside the booking transaction)',
      engine,
      measured: `p50 ${queued.p50} ms, p95 ${queued.p95} ms, p99 ${queued.p99} ms`,
      goal: 'p99 <= 5 ms',
      met: queued.p99 <= 5,
    },
    {
      name: `drain ${DRAIN} confirmations to a loopback SMTP server (one worker)`,
      engine,
      measured: `${perSecond} mails/s`,
      goal: '>= 100 mails/s',
      met: perSecond >= 100,
    },
  ];
}

runBenchmark(async () => report('outbox', await onEachEngine(measure)));
