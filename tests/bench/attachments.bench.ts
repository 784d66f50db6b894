// Attachments benchmark (docs/rules/attachments.md, issue 12): POST a 5 MB referral PDF to
// /api/secured/appointments/{key}/attachments over real HTTP, 8 uploads at a time, as signed-in
// patients: multipart streamed to a work file, checked by its bytes, stored (folder storage under a
// temporary DATA_DIR) and the row written. Then 200 more uploads while the server's memory is
// sampled: it must stay flat (streamed, never buffered whole).
// PGlite always; PostgreSQL too when DATABASE_URL is set.
// Goals: p95 < 300 ms at 8 concurrent uploads on PGlite; heap + buffers after 200 uploads within
// 16 MB of where they were after the warm-up.
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { buildServer } from '../../src-server/app';
import { parseConfig } from '../../src-server/config';
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { seedDemoProvider } from '../../src-server/db/seed/seed';
import { systemClock } from '../../src-server/platform/clock';
import { noTransportMailer } from '../../src-server/platform/mailer';
import { createFolderStorage } from '../../src-server/platform/storage';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { report, summarise, type GoalResult } from './helpers/stats';

const CONCURRENCY = 8;
const TIMED = 96;
const MEMORY_UPLOADS = 200;
const FILE_BYTES = 5 * 1024 * 1024;
const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A valid 5 MB PDF: a minimal document padded with a comment stream the checks must read through. */
function bigPdf(): Buffer {
  const head = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n';
  const tail = 'trailer<</Root 1 0 R>>\n%%EOF\n';
  const padding = Buffer.alloc(FILE_BYTES - head.length - tail.length, '%'.charCodeAt(0));
  for (let index = 80; index < padding.length; index += 81) padding[index] = 0x0a;
  return Buffer.concat([Buffer.from(head), padding, Buffer.from(tail)]);
}

/** The multipart body around the file, sent as three writes so the client holds one copy of the file. */
function envelope(boundary: string): { before: Buffer; after: Buffer } {
  return {
    before: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="referral.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    after: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

function upload(port: number, cookie: string, file: Buffer): Promise<{ status: number; ms: number }> {
  const boundary = 'benchboundary7d3e';
  const { before, after } = envelope(boundary);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/secured/appointments/${LIAM.bookingKey}/attachments`,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(before.length + file.length + after.length),
          cookie,
          'x-requested-with': 'XMLHttpRequest',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.on('error', reject);
    request.write(before);
    request.write(file);
    request.end(after);
  });
}

async function startServer(db: Database, dataDir: string): Promise<FastifyInstance> {
  const parsed = parseConfig(
    { LOG_LEVEL: 'silent', DATA_DIR: dataDir },
    { cwd: process.cwd(), packageVersion: '0.0.0-bench', gitShortHash: null },
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const app = await buildServer({
    db,
    clock: systemClock,
    config: parsed.config,
    mailer: noTransportMailer,
    storage: createFolderStorage(join(dataDir, 'files')),
    logger: { level: 'silent' },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

async function signIn(app: FastifyInstance): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/patient-access/authenticate',
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: { bookingKey: LIAM.bookingKey, type: 'APPOINTMENT', dateOfBirth: LIAM.dateOfBirth },
  });
  const token = /__Host-[^=]+=([^;]+)/.exec(String(response.headers['set-cookie']))?.[1];
  if (response.statusCode !== 200 || token === undefined) throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
  return `${PATIENT_SESSION_COOKIE}=${token}`;
}

function memoryNow(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

async function inBatches(count: number, run: () => Promise<{ status: number; ms: number }>, each?: () => void): Promise<number[]> {
  const times: number[] = [];
  for (let done = 0; done < count; done += CONCURRENCY) {
    const batch = await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - done) }, run));
    for (const result of batch) {
      if (result.status !== 201) throw new Error(`an upload answered ${result.status}`);
      times.push(result.ms);
    }
    each?.();
  }
  return times;
}

async function measure(engine: string, db: Database): Promise<GoalResult[]> {
  await migrate(db);
  await seedDemoProvider(db, { clock: systemClock });
  // Room for every upload of the run in one booking.
  await db.query(`update attachment_settings set max_files_per_booking = 50, max_bytes_per_booking = 524288000`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-attachments-'));
  const app = await startServer(db, dataDir);
  const port = (app.server.address() as { port: number }).port;
  const file = bigPdf();
  const clear = () => db.query(`delete from attachment`);
  try {
    const cookie = await signIn(app);
    const send = () => upload(port, cookie, file);
    await inBatches(16, send);
    await clear();
    const timed = summarise(await inBatches(TIMED, send, () => void clear()));
    await clear();

    const baseline = memoryNow();
    let peak = 0;
    let sinceClear = 0;
    await inBatches(MEMORY_UPLOADS, send, () => {
      peak = Math.max(peak, process.memoryUsage().rss);
      sinceClear += CONCURRENCY;
      if (sinceClear >= 40) {
        sinceClear = 0;
        void clear();
      }
    });
    const after = memoryNow();
    const growthMb = Math.round(((after - baseline) / 2 ** 20) * 10) / 10;
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
