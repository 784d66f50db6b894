// Attachments benchmark (docs/rules/attachments.md, issue 12): POST a 5 MB scanned referral (a PDF
// of one page image) to /api/secured/appointments/{key}/attachments over real HTTP, 8 uploads at
// a time, as signed-in patients on a worker thread (helpers/upload-client.ts): multipart streamed to a work file, checked by its bytes, stored (folder storage under a
// temporary DATA_DIR) and the row written. Then 200 more uploads while the server's memory is
// sampled: it must stay flat (streamed, never buffered whole).
// PGlite always; PostgreSQL too when DATABASE_URL is set.
// Goals: p95 < 300 ms at 8 concurrent uploads on PGlite; heap + buffers (after GC) at the end of 200
// uploads within 16 MB of where they were after the first batches (medians of five samples each).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { seedDemoProvider } from '../../src-server/db/seed/seed';
import { systemClock } from '../../src-server/platform/clock';
import { LIAM, liamSessionCookie, startBenchServer } from './helpers/bench-server';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';
import type { UploadJob, UploadMessage } from './helpers/upload-client';

const CONCURRENCY = 8;
const TIMED = sized(96, 16);
const FIRST_UPLOADS = sized(16, 8);
// A smoke run still samples memory twice (after batches 3 and 4).
const MEMORY_UPLOADS = sized(200, 32);
const WARM_BATCHES = 3;
const FILE_BYTES = 5 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A 5 MB scanned referral as a scanner makes it: one page showing one JPEG image (random bytes stand in for the compressed picture). */
function scannedReferralPdf(): Buffer {
  const head =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</XObject<</Im0 4 0 R>>>>>>endobj\n';
  const tail = '\nendstream\nendobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
  const imageLength = FILE_BYTES - head.length - tail.length - 120;
  const imageHead = `4 0 obj<</Type/XObject/Subtype/Image/Width 2480/Height 3508/ColorSpace/DeviceGray/BitsPerComponent 8/Filter/DCTDecode/Length ${imageLength}>>\nstream\n`;
  const image = randomBytes(FILE_BYTES - head.length - imageHead.length - tail.length);
  return Buffer.concat([Buffer.from(head), Buffer.from(imageHead), image, Buffer.from(tail)]);
}

/**
 * `count` uploads, `concurrency` at a time, sent from a worker thread (docs: helpers/upload-client.ts);
 * `each` runs on this thread after every batch, before the next one starts. Answers every upload's time.
 */
function uploadsFromWorker(job: Omit<UploadJob, 'concurrency'>, each?: () => Promise<void> | void): Promise<number[]> {
  const times: number[] = [];
  // The worker loads the TypeScript client through tsx (a worker does not inherit --import hooks on Node 20).
  const client = new URL('./helpers/upload-client.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(client)}, ${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(bootstrap, { eval: true, workerData: { ...job, concurrency: CONCURRENCY } });
  return new Promise((resolve, reject) => {
    worker.on('message', (message: UploadMessage) => {
      if (message.kind === 'done') {
        void worker.terminate().then(() => resolve(times));
        return;
      }
      for (const result of message.results) {
        if (result.status !== 201) {
          void worker.terminate();
          reject(new Error(`an upload answered ${result.status}`));
          return;
        }
        times.push(result.ms);
      }
      // No upload is in flight until 'next'.
      Promise.resolve(each?.()).then(() => worker.postMessage('next'), reject);
    });
    worker.on('error', reject);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function memoryNow(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

async function measure(engine: string, db: Database): Promise<GoalResult[]> {
  await migrate(db);
  await seedDemoProvider(db, { clock: systemClock });
  // Patients sign in with the date of birth alone (no one-time code to fetch), and there is room for every upload of the run in one booking.
  await db.query(`update provider set app_config = jsonb_set(app_config, '{otpRequired}', 'false'::jsonb)`);
  await db.query(`update attachment_settings set max_files_per_booking = 50, max_bytes_per_booking = 524288000`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-attachments-'));
  const { app } = await startBenchServer(db, dataDir);
  const port = (app.server.address() as { port: number }).port;
  const file = scannedReferralPdf();
  const clear = async () => void (await db.query(`delete from attachment`));
  try {
    const job = { port, path: `/api/secured/appointments/${LIAM.bookingKey}/attachments`, cookie: await liamSessionCookie(app), file };
    await uploadsFromWorker({ ...job, count: FIRST_UPLOADS });
    await clear();
    // A booking holds at most 50 files and 500 MB: the rows go between batches.
    const timed = summarise(await uploadsFromWorker({ ...job, count: TIMED }, clear));
    await clear();

    // Sampled after every batch once WARM_BATCHES have run (the previous worker is gone by then); in-flight
    // buffers come and go between samples, so growth compares the medians of the first and last five samples.
    const samples: number[] = [];
    let batches = 0;
    let peak = 0;
    await uploadsFromWorker({ ...job, count: MEMORY_UPLOADS }, () => {
      batches += 1;
      if (batches >= WARM_BATCHES) samples.push(memoryNow());
      peak = Math.max(peak, process.memoryUsage().rss);
      return clear();
    });
    const growthMb = Math.round(((median(samples.slice(-5)) - median(samples.slice(0, 5))) / 2 ** 20) * 10) / 10;
    return [
      {
        name: `POST a 5 MB PDF, ${CONCURRENCY} at a time (stream, check, store, row)`,
        engine,
        measured: `p50 ${timed.p50} ms, p95 ${timed.p95} ms, p99 ${timed.p99} ms (${timed.count} uploads)`,
        goal: engine === 'pglite' ? 'p95 < 300 ms' : 'p95 < 300 ms (PGlite is the goal; reported)',
        met: engine !== 'pglite' || timed.p95 < 300,
      },
      {
        name: `server memory across ${MEMORY_UPLOADS} uploads of 5 MB (heap + buffers after GC)`,
        engine,
        measured: `${growthMb >= 0 ? '+' : ''}${growthMb} MB; peak RSS ${Math.round(peak / 2 ** 20)} MB`,
        goal: 'within 16 MB',
        met: Math.abs(growthMb) <= 16,
      },
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark(async () => report('attachments', await onEachEngine((engine, db) => measure(engine, db))));
