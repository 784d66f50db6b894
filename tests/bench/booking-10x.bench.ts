// Booking at ten times the data (issue 29 item 9; docs/rules/booking.md#availability-index):
// 500 clinics x 3 resources (CT, MRI, ultrasound) open 07:00-19:00 every day, 90 days, about 60 %
// booked (~1.7 million appointments, helpers/booking-data-10x.ts), on PGlite and (when DATABASE_URL
// is set) PostgreSQL. Measures, warm, over real HTTP on loopback, the questions the web app asks:
//   clinics offering the exam, each with its next free time (all 500): p95 <= 50 ms
//   week of one clinic (the booking page's question), across clinics and weeks: p95 <= 50 ms, p99 <= 100 ms
//   week at the API's widest (MAX_CLINICS_PER_QUERY clinics, 7 days), repeated and every answer
//     new: p95 <= 50 ms, p99 <= 100 ms
//   month of one clinic (the booking page), and the month over all 1,500 resources (3 exams x
//     pages of 60 clinics, round trips summed): p95 <= 150 ms
// and the availability index itself: the time to fill it from the database, and the heap it
// keeps (measured around a store of its own, after a full garbage collection): <= 13 MiB per
// 100,000 future appointments (docs/rules/booking.md#availability-index).
// Run: npm run bench -- booking-10x   (writes bench-results/booking-10x.json)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_CLINICS_PER_QUERY, type AvailabilityResponse, type ClinicsResponse } from '../../src-contract/api/booking';
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { PGLITE_SHARED_BUFFERS_MIN_MB } from '../../src-server/db/pglite-settings';
import { seedDemoProvider } from '../../src-server/db/seed/seed';
import { AvailabilityStore } from '../../src-server/modules/availability/availability-store';
import { createAvailabilityRepository } from '../../src-server/modules/availability/repository';
import { systemClock } from '../../src-server/platform/clock';
import { addDays, localDate } from '../../src-server/platform/time-zone';
import { startBenchServer } from './helpers/bench-server';
import { DURATIONS, examSlug, MODALITIES } from './helpers/booking-data';
import { generateBulk } from './helpers/booking-data-10x';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { getJson, timed } from './helpers/http-timing';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const SIZE = { clinics: sized(500, 4), days: sized(90, 7), batchRows: sized(20_000, 500) };
// PGlite's buffer pool is fixed when it opens, before the data exists: the pool the server's
// automatic sizing gives the database this bench builds, about 830 MiB (onEachEngine checks it
// once the data is built).
const PGLITE_SHARED_BUFFERS_MB = sized(208, PGLITE_SHARED_BUFFERS_MIN_MB);
const WARM_UP = sized(30, 3);
const SAMPLES = sized(300, 15);
/** The widest-week questions computed anew: every exam, this many weeks ahead. */
const FRESH_WEEKS = sized(8, 1);
/** The heap bound of the index, per 100,000 future appointments in it. */
const INDEX_MB_PER_100K = 13;

// A full collection before each heap reading, without asking run.ts for --expose-gc.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapUsedAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const mb = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

function pages<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, page) => items.slice(page * size, (page + 1) * size));
}

const percentiles = (s: { p50: number; p95: number; p99: number }): string => `p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms`;

/** Fills an index of its own from the database: the time it takes and the heap it keeps. */
async function measureIndex(db: Database): Promise<{ fillMs: number; entries: number; heapBytes: number; estimateBytes: number }> {
  const before = heapUsedAfterGc();
  const store = new AvailabilityStore(createAvailabilityRepository(db), systemClock);
  const started = performance.now();
  await store.ensureLoaded();
  const fillMs = performance.now() - started;
  const index = await store.fresh();
  const heapBytes = heapUsedAfterGc() - before;
  return { fillMs, entries: index.size, heapBytes, estimateBytes: index.memoryEstimate() };
}

async function measure(engine: 'pglite' | 'postgres', db: Database, notes: Record<string, unknown>): Promise<GoalResult[]> {
  const results: GoalResult[] = [];
  const work = mkdtempSync(join(tmpdir(), `portal-bench-booking-10x-${engine}-`));
  const now = new Date();
  await migrate(db);
  await seedDemoProvider(db, { clock: systemClock });
  const buildStarted = performance.now();
  const data = await generateBulk(db, now, SIZE);
  const buildMs = performance.now() - buildStarted;
  console.log(
    `[${engine}] ${data.appointments} appointments (${(data.bookedShare * 100).toFixed(1)} % booked) in ${(buildMs / 1000).toFixed(1)} s (rows ${(data.insertMs / 1000).toFixed(1)} s, indexes ${(data.indexMs / 1000).toFixed(1)} s)`,
  );

  const { fillMs, entries, heapBytes, estimateBytes } = await measureIndex(db);
  const bound = (INDEX_MB_PER_100K * entries) / 100_000;
  console.log(
    `[${engine}] index: ${entries} entries filled in ${(fillMs / 1000).toFixed(1)} s, heap ${mb(heapBytes)} MiB, estimate ${mb(estimateBytes)} MiB`,
  );
  results.push({
    name: `availability index: heap kept after a full fill (${entries.toLocaleString('en')} future appointments; the index's own estimate in brackets)`,
    engine,
    measured: `${mb(heapBytes)} MiB (${mb(heapBytes / Math.max(1, entries / 100_000))} MiB per 100k; estimate ${mb(estimateBytes)} MiB)`,
    goal: `<= ${INDEX_MB_PER_100K} MiB per 100k appointments (${Math.round(bound)} MiB here)`,
    met: mb(heapBytes) <= bound,
  });
  results.push({
    name: `availability index: filled from the database at start (${entries.toLocaleString('en')} rows)`,
    engine,
    measured: `${(fillMs / 1000).toFixed(2)} s`,
    goal: '<= 30 s',
    met: fillMs <= 30_000,
  });

  const serverStarted = performance.now();
  const { app, baseUrl: base } = await startBenchServer(db, work);
  const serverMs = performance.now() - serverStarted;
  notes[engine] = {
    appointments: data.appointments,
    bookedShare: Math.round(data.bookedShare * 1000) / 10,
    dataBuildSeconds: Math.round(buildMs / 100) / 10,
    rowsSeconds: Math.round(data.insertMs / 100) / 10,
    indexesSeconds: Math.round(data.indexMs / 100) / 10,
    indexFillSeconds: Math.round(fillMs / 10) / 100,
    indexHeapMiB: mb(heapBytes),
    indexEstimateMiB: mb(estimateBytes),
    serverStartWithIndexSeconds: Math.round(serverMs / 10) / 100,
  };
  try {
    const clinics = data.clinicSlugs;
    const today = localDate(now, 'Australia/Sydney');
    const exam = examSlug('CT', 30);

    // 1. The clinics step: every clinic offering the exam, each with its next free time.
    let listed = 0;
    const list = summarise(
      await timed(WARM_UP, SAMPLES, async (index) => {
        const minutes = DURATIONS[index % DURATIONS.length] ?? 30;
        listed = (await getJson<ClinicsResponse>(`${base}/api/booking/clinics?exams=${examSlug('US', minutes)}`)).clinics.length;
      }),
    );
    results.push({
      name: `clinics offering an exam, each with its next free time (${listed} clinics)`,
      engine,
      measured: percentiles(list),
      goal: 'p95 <= 50 ms, p99 <= 100 ms',
      met: list.p95 <= 50 && list.p99 <= 100,
    });

    // 2. What the booking page asks for times: one clinic's week, a different clinic and week each time.
    let slotsSeen = 0;
    const single = summarise(
      await timed(WARM_UP, SAMPLES, async (index) => {
        const clinic = clinics[(index * 7) % clinics.length];
        const body = await getJson<AvailabilityResponse>(
          `${base}/api/booking/availability?exams=${exam}&clinics=${clinic}&from=${addDays(today, (index * 7) % Math.max(1, SIZE.days - 7))}&days=7`,
        );
        slotsSeen = body.clinics[0]?.days.reduce((sum, day) => sum + day.slots.length, 0) ?? 0;
      }),
    );
    results.push({
      name: `week of one clinic (the booking page's question), ${SAMPLES} clinics and weeks in turn (${slotsSeen} slots)`,
      engine,
      measured: percentiles(single),
      goal: 'p95 <= 50 ms, p99 <= 100 ms',
      met: single.p95 <= 50 && single.p99 <= 100,
    });

    // 3. The widest week the API answers: MAX_CLINICS_PER_QUERY clinics, repeated (answers reused
    // while nothing changed) and every answer new (every exam, several weeks: no cache has it).
    const widest = clinics.slice(0, MAX_CLINICS_PER_QUERY).join(',');
    const wide = summarise(
      await timed(WARM_UP, SAMPLES, async (index) => {
        await getJson(`${base}/api/booking/availability?exams=${exam}&clinics=${widest}&from=${addDays(today, index % 10)}&days=7`);
      }),
    );
    const widestCount = Math.min(MAX_CLINICS_PER_QUERY, clinics.length);
    results.push({
      name: `week, ${widestCount} clinics (the API's widest question), 7 days, 10 questions repeated`,
      engine,
      measured: percentiles(wide),
      goal: 'p95 <= 50 ms, p99 <= 100 ms',
      met: wide.p95 <= 50 && wide.p99 <= 100,
    });
    const fresh: number[] = [];
    for (const modality of MODALITIES) {
      for (const minutes of DURATIONS) {
        for (let week = 0; week < FRESH_WEEKS; week++) {
          // Clinics further down the list each time, so no day is in the index's cache either.
          const page = clinics.slice((week * MAX_CLINICS_PER_QUERY) % clinics.length).slice(0, MAX_CLINICS_PER_QUERY);
          const started = performance.now();
          await getJson(
            `${base}/api/booking/availability?exams=${examSlug(modality, minutes)}&clinics=${page.join(',')}&from=${addDays(today, 7 * week + 1)}&days=7`,
          );
          fresh.push(performance.now() - started);
        }
      }
    }
    const uncached = summarise(fresh);
    results.push({
      name: `week, ${widestCount} clinics, every answer computed anew (${fresh.length} distinct questions)`,
      engine,
      measured: percentiles(uncached),
      goal: 'p95 <= 50 ms, p99 <= 100 ms',
      met: uncached.p95 <= 50 && uncached.p99 <= 100,
    });

    // 4. Month: one clinic (the booking page), and every resource (3 exams x pages of clinics).
    const months = [0, 1, 2].map((offset) => addDays(today, offset * 30).slice(0, 7));
    const oneMonth = summarise(
      await timed(WARM_UP, SAMPLES, async (index) => {
        const monthValue = months[index % months.length] ?? today.slice(0, 7);
        await getJson(
          `${base}/api/booking/availability/month?exams=${exam}&clinics=${clinics[index % clinics.length]}&month=${monthValue}`,
        );
      }),
    );
    results.push({
      name: 'month of one clinic (the booking page), clinics and months in turn',
      engine,
      measured: percentiles(oneMonth),
      goal: 'p95 <= 150 ms',
      met: oneMonth.p95 <= 150,
    });
    const clinicPages = pages(clinics, MAX_CLINICS_PER_QUERY);
    const allMonth = summarise(
      await timed(WARM_UP, Math.ceil(SAMPLES / 10), async (index) => {
        const monthValue = months[index % months.length] ?? today.slice(0, 7);
        for (const modality of MODALITIES) {
          for (const page of clinicPages) {
            await getJson(
              `${base}/api/booking/availability/month?exams=${examSlug(modality, 30)}&clinics=${page.join(',')}&month=${monthValue}`,
            );
          }
        }
      }),
    );
    results.push({
      name: `month over all ${3 * clinics.length} resources (${3 * clinicPages.length} questions of <= ${MAX_CLINICS_PER_QUERY} clinics, round trips summed)`,
      engine,
      measured: percentiles(allMonth),
      goal: 'p95 <= 150 ms',
      met: allMonth.p95 <= 150,
    });
  } finally {
    // Each engine's figures as soon as they exist: a later engine's failure must not lose them.
    console.table(results.map((r) => ({ goal: r.name.slice(0, 70), measured: r.measured, target: r.goal, met: r.met ? 'yes' : 'NO' })));
    await app.close();
    rmSync(work, { recursive: true, force: true });
  }
  return results;
}

runBenchmark(async () => {
  const notes: Record<string, unknown> = {};
  const results = await onEachEngine((engine, db) => measure(engine, db, notes), { pgliteSharedBuffersMb: PGLITE_SHARED_BUFFERS_MB });
  if (!process.env.DATABASE_URL) console.log('DATABASE_URL is not set: PostgreSQL skipped');
  return report('booking-10x', results, { data: notes });
});
