// Foundation benchmark: what every page visit costs the server before any feature runs — the
// bootstrap configuration the shell reads and the served index.html with its title rule — on a
// seeded PGlite, over real HTTP on loopback, warm. Goals: both p95 <= 10 ms, p99 <= 25 ms.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBenchPglite } from './helpers/engines';
import { migrate } from '../../src-server/db/migrate';
import { seedDemoProvider } from '../../src-server/db/seed/seed';
import { systemClock } from '../../src-server/platform/clock';
import { startBenchServer } from './helpers/bench-server';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const WARM_UP = sized(200, 10);
const SAMPLES = sized(2000, 50);

async function main(): Promise<boolean> {
  const work = mkdtempSync(join(tmpdir(), 'portal-bench-foundation-'));
  // The real built website: the index.html rewrite is part of what a page visit costs.
  const webRoot = join(process.cwd(), 'dist', 'web');
  if (!existsSync(join(webRoot, 'index.html'))) {
    execFileSync('npx', ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const db = await openBenchPglite();
  await migrate(db);
  await seedDemoProvider(db, { clock: systemClock });
  const { app, baseUrl } = await startBenchServer(db, work, { WEB_ROOT: webRoot });
  const results: GoalResult[] = [];
  try {
    for (const path of ['/api/config/bootstrap', '/about']) {
      const samples: number[] = [];
      for (let i = 0; i < WARM_UP + SAMPLES; i += 1) {
        const started = performance.now();
        const response = await fetch(`${baseUrl}${path}`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
        if (i >= WARM_UP) samples.push(performance.now() - started);
      }
      const summary = summarise(samples);
      results.push({
        name: `GET ${path} (round trip, sequential)`,
        engine: 'pglite',
        measured: `p50 ${summary.p50} ms, p95 ${summary.p95} ms, p99 ${summary.p99} ms`,
        goal: 'p95 <= 10 ms, p99 <= 25 ms',
        met: summary.p95 <= 10 && summary.p99 <= 25,
      });
    }
  } finally {
    await app.close();
    await db.close();
    rmSync(work, { recursive: true, force: true });
  }
  return report('foundation', results);
}

main().then(
  (met) => process.exit(met ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
