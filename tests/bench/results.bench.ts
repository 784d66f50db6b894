// Results benchmark (docs/rules/results.md). On the seeded demo provider plus the booking
// reference data (about 173,000 appointments) of which 50,000 have a delivered report, over real
// HTTP on loopback, warm, as Liam signed in to his results (date of birth and the mailed code):
//   result page data: GET /api/results/{key}, the released report with a fresh image viewer
//     link: p95 < 30 ms on PGlite (PostgreSQL reported)
//   share creation: POST /api/results/{key}/shares by e-mail (share row, outbox mail, audit entry
//     in one transaction): p99 < 50 ms on PGlite (PostgreSQL reported); the hourly share limit
//     is reset between shares (not timed)
// PGlite always; PostgreSQL too when DATABASE_URL is set.
// Run: npm run bench -- results   (writes bench-results/results.json)
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PatientResultSchema } from '@contract/api/results';
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { seedDemoProvider } from '../../src-server/db/seed/seed';
import { systemClock } from '../../src-server/platform/clock';
import { SHARES_PER_HOUR } from '../../src-server/modules/result-shares/service';
import { startBenchServer, sessionCookieOf } from './helpers/bench-server';
import { generate as generateBookingData } from './helpers/booking-data';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };
const TOKEN = 'results-bench-integration-token-0123456789';
const WARM_UP = sized(50, 5);
const SAMPLES = sized(1000, 30);
const REPORTS = sized(50_000, 100);
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
/** The smallest passive PDF the delivery accepts. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function post(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
}

/** 50,000 reports on the reference data's appointments (their PDFs are never opened here). */
async function addReports(db: Database): Promise<void> {
  await db.query(
    `insert into result_report (accession_number, appointment_id, report_text, pdf_key, pdf_sha256, pdf_size, referrer_name,
                                study_instance_uid, release_at, received_at, delivery_sha256)
     select 'BENCH-' || n, id, 'Findings: unremarkable study number ' || n || '.', 'benchPdfKey0000000000000', repeat('a', 64), 100,
            'Dr Bench Referrer', '1.2.826.0.1.' || n, now() - interval '1 day', now() - interval '2 days', repeat('b', 64)
       from (select id, row_number() over (order by id) as n from appointment where booking_key like 'bench%' limit ${REPORTS}) a`,
  );
  await db.query('analyze result_report');
}

/** Liam's results sign-in: date of birth, then the code from the outbox mail. */
async function resultsSignIn(db: Database, baseUrl: string): Promise<string> {
  const first = await post(baseUrl, '/api/patient-access/authenticate', {
    bookingKey: LIAM.bookingKey,
    type: 'APPOINTMENT_RESULTS',
    dateOfBirth: LIAM.dateOfBirth,
  });
  if (first.status !== 200) throw new Error(`results sign-in answered ${first.status}`);
  const pending = sessionCookieOf(first.headers.get('set-cookie'));
  if ((await post(baseUrl, '/api/patient-access/otp', { channel: 'EMAIL' }, { cookie: pending })).status !== 202)
    throw new Error('no code sent');
  const [mail] = await db.query<{ text_body: string }>(
    `select text_body from outbox_mail where recipient = $1 and kind = 'otp_code' order by id desc limit 1`,
    [LIAM.email],
  );
  const code = /\b(\d{6})\b/.exec(mail?.text_body ?? '')?.[1] ?? '';
  const verified = await post(baseUrl, '/api/patient-access/otp/verify', { code }, { cookie: pending });
  if (verified.status !== 200) throw new Error(`code check answered ${verified.status}`);
  return sessionCookieOf(verified.headers.get('set-cookie'));
}

async function measure(engine: 'pglite' | 'postgres', db: Database): Promise<GoalResult[]> {
  await migrate(db);
  await seedDemoProvider(db, { clock: systemClock });
  const data = await generateBookingData(db, new Date());
  await addReports(db);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-results-'));
  const { app, baseUrl } = await startBenchServer(db, dataDir, {
    INTEGRATION_API_TOKEN_SHA256: createHash('sha256').update(TOKEN).digest('hex'),
  });
  try {
    const [liam] = await db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1 limit 1`, [
      LIAM.bookingKey,
    ]);
    const delivered = await post(
      baseUrl,
      '/api/integration/results',
      {
        accessionNumber: 'BENCH-LIAM-1',
        appointmentSlug: liam?.id,
        reportText: 'MRI LEFT KNEE.\n\nFindings: small joint effusion.\n\nImpression: no internal derangement.',
        reportPdfBase64: PDF.toString('base64'),
        referrer: { name: 'Dr Amelia Nguyen', providerNumber: '4932751K' },
        releaseAt: new Date(Date.now() - 86_400_000).toISOString(),
        study: { studyInstanceUid: '1.2.826.0.1.3680043.8.498.1' },
      },
      { authorization: `Bearer ${TOKEN}` },
    );
    if (delivered.status !== 201) throw new Error(`delivery answered ${delivered.status}`);
    const cookie = await resultsSignIn(db, baseUrl);

    const pageTimes: number[] = [];
    for (let index = 0; index < WARM_UP + SAMPLES; index += 1) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/results/${LIAM.bookingKey}`, { headers: { cookie } });
      const body: unknown = await response.json();
      const elapsed = performance.now() - started;
      if (response.status !== 200 || PatientResultSchema.parse(body).state !== 'RELEASED')
        throw new Error(`result page answered ${response.status}`);
      if (index >= WARM_UP) pageTimes.push(elapsed);
    }

    const shareTimes: number[] = [];
    for (let index = 0; index < WARM_UP + SAMPLES; index += 1) {
      if (index % (SHARES_PER_HOUR - 1) === 0) await db.query(`delete from result_share`);
      const started = performance.now();
      const response = await post(
        baseUrl,
        `/api/results/${LIAM.bookingKey}/shares`,
        {
          contactDetails: `gp${index}@clinic.example`,
          contactDetailsType: 'EMAIL',
          contactName: 'Dr Bench',
          note: 'For Friday.',
          type: 'RESULT',
        },
        { cookie },
      );
      await response.arrayBuffer();
      const elapsed = performance.now() - started;
      if (response.status !== 201) throw new Error(`share creation answered ${response.status}`);
      if (index >= WARM_UP) shareTimes.push(elapsed);
    }

    const page = summarise(pageTimes);
    const shares = summarise(shareTimes);
    const scale = `${data.appointments.toLocaleString('en')} appointments, ${REPORTS.toLocaleString('en')} reports`;
    return [
      {
        name: `result page data over HTTP (GET /api/results/{key}), ${scale}`,
        engine,
        measured: `p50 ${page.p50} ms, p95 ${page.p95} ms, p99 ${page.p99} ms, max ${page.max} ms`,
        goal: engine === 'pglite' ? 'p95 < 30 ms' : 'p95 < 30 ms (PGlite is the goal; reported)',
        met: engine !== 'pglite' || page.p95 < 30,
      },
      {
        name: `share creation over HTTP (POST /api/results/{key}/shares, e-mail), ${scale}`,
        engine,
        measured: `p50 ${shares.p50} ms, p95 ${shares.p95} ms, p99 ${shares.p99} ms, max ${shares.max} ms`,
        goal: engine === 'pglite' ? 'p99 < 50 ms' : 'p99 < 50 ms (PGlite is the goal; reported)',
        met: engine !== 'pglite' || shares.p99 < 50,
      },
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark(async () => report('results', await onEachEngine(measure)));
