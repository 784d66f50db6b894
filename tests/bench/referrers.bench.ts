// Referrer report list benchmark (docs/rules/referrers.md#referrer-report-list). On the seeded
// demo provider plus the booking reference data (about 173,000 appointments), 50,000 delivered
// reports of which 10,000 name Dr Riley Referrer's provider number (2426711A), each on a patient
// of their own with a generated name. Over real HTTP on loopback, warm, as Dr Riley signed in
// through the local identity provider (a real access token, a real staff session):
//   GET /api/referrer/reports: the first page (20 rows, each with a fresh referrer imsec, and
//     the list view audited): p95 < 30 ms on PGlite (PostgreSQL reported)
//   the same with a search (last-name and first-name starts, accession number starts, and texts
//     matching nobody, which read all 10,000 of the referrer's rows) and the next page by cursor:
//     reported against the same goal
// PGlite always; PostgreSQL too when DATABASE_URL is set.
// Run: npm run bench -- referrers   (writes bench-results/referrers.json)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferrerReportsPageSchema, type ReferrerReportsPage } from '@contract/api/referrer-reports';
import type { Database } from '../../src-server/db/connection';
import { migrate } from '../../src-server/db/migrate';
import { seedDemoProvider } from '../../src-server/db/seed/seed';
import type { DevIdentityProvider } from '../../src-server/dev-identity/provider';
import { systemClock } from '../../src-server/platform/clock';
import { sessionCookieOf, startBenchServer } from './helpers/bench-server';
import { generate as generateBookingData } from './helpers/booking-data';
import { accessToken, benchIdentity, withDemoIdentityProvider } from './helpers/identity-tokens';
import { onEachEngine, runBenchmark } from './helpers/engines';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const RILEY = 'dr.riley.referrer@harbour-medical.example';
const RILEY_NUMBER = '2426711A';
const OTHER_NUMBERS = ['4932751K', '4817263B', '5021846J', '3311450F'];
// A smoke run keeps more than one page (20 rows) of the referrer's.
const MINE = sized(10_000, 45);
const OTHERS = sized(40_000, 30);
// The first timed block follows the server start: a longer warm-up than the results bench so PGlite and V8 are warm for every block.
const WARM_UP = sized(200, 5);
const SAMPLES = sized(1000, 20);
const FIRST_NAMES = ['Olivia', 'Liam', 'Amelia', 'Noah', 'Isla', 'Jack', 'Mia', 'Oliver', 'Ava', 'Leo', 'Grace', 'Henry', 'Zoe', 'Lucas'];
const LAST_NAMES = ['Smith', 'Nguyen', 'Brown', 'Wilson', 'Taylor', 'Johnson', 'White', 'Martin', 'Anderson', 'Thompson', 'Tran', 'Walker'];
/** What a doctor types: starts of last and first names, accession number starts, and texts matching none. */
const SEARCHES = ['smi', 'Ngu', 'wal', 'olivia', 'Lu', 'REF-12', 'ref-777', 'REF-9999', 'zzq', 'Xavier'];

/**
 * 50,000 reports on the reference data's appointments: the first 10,000 name Dr Riley and get a
 * patient each (generated names, one report an hour apart), the rest name four other referrers.
 */
async function addReports(db: Database): Promise<void> {
  // One patient per report of Dr Riley's (the e-mail marks which appointment gets which).
  await db.query(
    `insert into patient (first_name, last_name, date_of_birth, email)
     select ($1::text[])[1 + n % ${FIRST_NAMES.length}], ($2::text[])[1 + (n / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}],
            date '1950-01-01' + (n * 7 % 20000)::int, 'referrer-bench-' || n || '@example.com'
       from generate_series(1, ${MINE}) as n`,
    [FIRST_NAMES, LAST_NAMES],
  );
  await db.query(
    `update appointment a set patient_id = p.id
       from (select id, row_number() over (order by id) as n from appointment where booking_key like 'bench%' limit ${MINE}) picked
       join patient p on p.email = 'referrer-bench-' || picked.n || '@example.com'
      where a.id = picked.id`,
  );
  await db.query(
    `insert into result_report (accession_number, appointment_id, report_text, pdf_key, pdf_sha256, pdf_size, referrer_name,
                                referrer_provider_number, study_instance_uid, release_at, received_at, delivery_sha256)
     select 'REF-' || n, id, 'Findings: unremarkable study number ' || n || '.', 'benchPdfKey0000000000000', repeat('a', 64), 100,
            case when n <= ${MINE} then 'Dr Riley Referrer' else 'Dr Other Referrer' end,
            case when n <= ${MINE} then $1 else ($2::text[])[1 + n % ${OTHER_NUMBERS.length}] end,
            '1.2.826.0.1.' || n, now() - (n % 3) * interval '3 days', now() - n * interval '1 hour', repeat('b', 64)
       from (select id, row_number() over (order by id) as n from appointment where booking_key like 'bench%' limit ${MINE + OTHERS}) a`,
    [RILEY_NUMBER, OTHER_NUMBERS],
  );
  await db.query('analyze patient');
  await db.query('analyze appointment');
  await db.query('analyze result_report');
}

/** Dr Riley's staff session: a real access token from the local provider, handed to the server as the browser does. */
async function referrerSignIn(idp: DevIdentityProvider, baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/staff-access/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ token: await accessToken(idp, RILEY) }),
  });
  if (response.status !== 200) throw new Error(`referrer sign-in answered ${response.status}`);
  return sessionCookieOf(response.headers.get('set-cookie'));
}

/** Times `count` list calls (after WARM_UP untimed ones); `query(i)` gives the i-th call's query. */
async function timeList(baseUrl: string, cookie: string, query: (index: number) => Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < WARM_UP + SAMPLES; index += 1) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/referrer/reports?${new URLSearchParams(query(index)).toString()}`, {
      headers: { cookie },
    });
    const body: unknown = await response.json();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`the list answered ${response.status}`);
    ReferrerReportsPageSchema.parse(body);
    if (index >= WARM_UP) times.push(elapsed);
  }
  return times;
}

async function measure(engine: 'pglite' | 'postgres', db: Database, idp: DevIdentityProvider): Promise<GoalResult[]> {
  await migrate(db);
  await seedDemoProvider(db, { clock: systemClock });
  const data = await generateBookingData(db, new Date());
  await addReports(db);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-referrers-'));
  const { app, baseUrl } = await startBenchServer(db, dataDir, {}, benchIdentity(idp));
  try {
    const cookie = await referrerSignIn(idp, baseUrl);
    const first = (await (await fetch(`${baseUrl}/api/referrer/reports`, { headers: { cookie } })).json()) as ReferrerReportsPage;
    if (first.reports.length !== 20 || first.nextCursor === null) throw new Error('the first page is not a full page of 20');
    const cursors: string[] = [first.nextCursor];

    const firstPage = summarise(await timeList(baseUrl, cookie, () => ({})));
    const searched = summarise(await timeList(baseUrl, cookie, (index) => ({ search: SEARCHES[index % SEARCHES.length] ?? '' })));
    const nextPage = summarise(await timeList(baseUrl, cookie, (index) => ({ before: cursors[index % cursors.length] ?? '' })));
    const scale = `${data.appointments.toLocaleString('en')} appointments, ${(MINE + OTHERS).toLocaleString('en')} reports, ${MINE.toLocaleString('en')} of them the referrer's`;
    const goal = engine === 'pglite' ? 'p95 < 30 ms' : 'p95 < 30 ms (PGlite is the goal; reported)';
    const line = (name: string, summary: ReturnType<typeof summarise>, goalMet: boolean): GoalResult => ({
      name: `${name}, ${scale}`,
      engine,
      measured: `p50 ${summary.p50} ms, p95 ${summary.p95} ms, p99 ${summary.p99} ms, max ${summary.max} ms`,
      goal,
      met: engine !== 'pglite' || goalMet,
    });
    return [
      line("referrer's report list, first page over HTTP (GET /api/referrer/reports)", firstPage, firstPage.p95 < 30),
      line(`the list searched (${SEARCHES.join(', ')}), round robin`, searched, searched.p95 < 30),
      line('the second page by cursor (before=…)', nextPage, nextPage.p95 < 30),
    ];
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark(() =>
  withDemoIdentityProvider(async (idp) => report('referrers', await onEachEngine((engine, db) => measure(engine, db, idp)))),
);
