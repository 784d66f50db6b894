// Warm-start benchmark: how long the server takes from spawn to its first 200 from GET /api/health,
// on PGlite, as `npm start` runs it (the built server, dist/server/main.js, with plain node and
// source maps) and as it ran before (node --import tsx src-server/main.ts), for comparison. Each run starts on a data
// folder of its own: the first start creates, migrates and seeds it; the starts after it are warm.
// Goal: the built server's warm start (median) under 1 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../server/helpers/spawned-server';
import { sized } from './helpers/scale';
import { report, summarise, type GoalResult } from './helpers/stats';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WARM_STARTS = sized(5, 1);
// A smoke run shares one data folder between the variants: only the first pays a first start
// (create, migrate, seed), the slowest part of the script.
const SHARE_DATA_FOLDER = sized(false, true);
const GOAL_MS = 1000;

interface Variant {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

// As scripts/start.mjs runs it.
const BUILT: Variant = {
  name: 'built (node --enable-source-maps dist/server/main.js)',
  args: ['--enable-source-maps', 'dist/server/main.js'],
};
// For comparison: the same without the local demo identity provider (oidc-provider is then never loaded).
const BUILT_NO_IDP: Variant = { ...BUILT, name: 'built, DEV_IDENTITY_PORT=off', env: { DEV_IDENTITY_PORT: 'off' } };
const TSX: Variant = { name: 'tsx (node --import tsx src-server/main.ts)', args: ['--import', 'tsx', 'src-server/main.ts'] };

/** Spawns the server and answers the milliseconds until /api/health answered 200; then stops it. */
async function timeStart(variant: Variant, dataDir: string): Promise<number> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant.name} exited (${child.exitCode}) before answering:\n${errors}`);
      if (performance.now() - started > 120_000) throw new Error(`${variant.name} did not answer within 120 s:\n${errors}`);
      const status = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** First start (null when `shared` was started before) and the warm starts after it. */
async function measure(
  variant: Variant,
  shared?: { dataDir: string; started: boolean },
): Promise<{ first: number | null; warm: number[] }> {
  const dataDir = shared?.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-bench-warm-start-'));
  try {
    const first = shared?.started === true ? null : await timeStart(variant, dataDir);
    if (shared !== undefined) shared.started = true;
    const warm: number[] = [];
    for (let i = 0; i < WARM_STARTS; i += 1) warm.push(await timeStart(variant, dataDir));
    return { first, warm };
  } finally {
    if (shared === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<boolean> {
  // The built server as `npm start` makes it (web and server built when missing or stale).
  const { ensureBuilt } = (await import(join(ROOT, 'scripts/start.mjs'))) as { ensureBuilt(): Promise<void> };
  await ensureBuilt();
  const results: GoalResult[] = [];
  const extra: Record<string, unknown> = {};
  const shared = SHARE_DATA_FOLDER ? { dataDir: mkdtempSync(join(tmpdir(), 'portal-bench-warm-start-')), started: false } : undefined;
  try {
    for (const variant of [BUILT, BUILT_NO_IDP, TSX]) {
      const { first, warm } = await measure(variant, shared);
      const summary = summarise(warm);
      const firstMs = first === null ? null : Math.round(first);
      extra[variant.name] = { firstStartMs: firstMs, warmStartsMs: warm.map(Math.round) };
      results.push({
        name: `warm start to /api/health 200, ${variant.name} (median of ${WARM_STARTS}; first start ${firstMs === null ? 'not measured' : `${firstMs} ms`})`,
        engine: 'pglite',
        measured: `median ${summary.p50} ms, max ${Math.round(Math.max(...warm))} ms`,
        goal: variant === BUILT ? `median < ${GOAL_MS} ms` : 'for comparison',
        met: variant === BUILT ? summary.p50 < GOAL_MS : true,
      });
    }
  } finally {
    if (shared !== undefined) rmSync(shared.dataDir, { recursive: true, force: true });
  }
  return report('warm-start', results, extra);
}

main().then(
  (met) => process.exit(met ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
