// npm run bench:web: the website's performance budgets (docs/web.md#budgets).
//
// 1. Builds the website (minified) with the Vite manifest.
// 2. Starts the real server (src-server/main.ts) on a temporary PGlite with the demo provider.
// 3. Measures gzipped JS and CSS of the booking home (observed in a real browser), the whole
//    booking flow and the questionnaire modal (scripts/web-budgets.mjs, which the end-to-end
//    check tests/e2e/bundle-budgets.spec.ts shares, so CI fails on a size past its budget).
// 4. Runs Lighthouse 12 (mobile preset, simulated throttling) 3 times on the booking home with
//    Debian Chromium and takes the median.
// Prints a table with pass/fail per budget and writes bench-results/web.json. Exits 1 when a
// budget fails.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.mjs';
import { BUDGETS, KB, measureSizes, observeHome, sizeResults } from './web-budgets.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist', 'web');
const PORT = Number(process.env.BENCH_WEB_PORT ?? 4330);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
function log(message) {
  console.log(`[bench-web] ${message}`);
}

function build() {
  log('building the website (vite build --config vite.web.config.ts)…');
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.web.config.ts'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/** Starts the real server on a temporary embedded database; resolves when /api/health answers. */
async function startServer(dataDir) {
  const env = { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: DIST, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 250))]);
    if (code !== undefined) throw new Error(`the server exited with ${code} before it was ready`);
    try {
      const response = await fetch(`${ORIGIN}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
  }
  child.kill('SIGTERM');
  throw new Error('the server did not answer /api/health within 120 s');
}

async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function runLighthouse(executablePath, run) {
  const output = join(tmpdir(), `bench-web-lighthouse-${process.pid}-${run}.json`);
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js'),
      `${ORIGIN}/`,
      '--only-categories=performance',
      `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
      '--output=json',
      `--output-path=${output}`,
      '--quiet',
    ],
    { cwd: ROOT, env: { ...process.env, CHROME_PATH: executablePath }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  if (result.status !== 0 || !existsSync(output)) throw new Error(`lighthouse run ${run} failed: ${result.stderr.slice(-2000)}`);
  const report = JSON.parse(readFileSync(output, 'utf8'));
  rmSync(output, { force: true });
  if (report.runtimeError) throw new Error(`lighthouse run ${run}: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const metric = (id) => report.audits[id]?.numericValue ?? null;
  return {
    score: Math.round((report.categories.performance.score ?? 0) * 100),
    lcpMs: metric('largest-contentful-paint'),
    fcpMs: metric('first-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    speedIndexMs: metric('speed-index'),
    lcpElement: lcpElementOf(report),
    lighthouseVersion: report.lighthouseVersion,
    userAgent: report.environment?.hostUserAgent ?? null,
  };
}

/** The LCP element's label and its phases (time to first byte, load delay, load time, render delay), for finding what holds LCP back. */
function lcpElementOf(report) {
  const tables = report.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const node = tables[0]?.items?.[0]?.node;
  const phases = (tables[1]?.items ?? []).map((item) => `${item.phase} ${Math.round(item.timing)} ms`).join(', ');
  return node ? `${node.nodeLabel ?? ''} <${node.snippet ?? ''}>${phases ? `; ${phases}` : ''}` : null;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function kb(bytes) {
  return Math.round((bytes / KB) * 10) / 10;
}

/** What a phone-sized Chromium downloads until the booking home is interactive (web-budgets.mjs). */
async function observeHomeInChromium(executablePath) {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 667 } });
    return await observeHome(page, ORIGIN, DIST);
  } finally {
    await browser.close();
  }
}

async function main() {
  const executablePath = ensureChromium();
  if (!executablePath) process.exit(1);
  build();

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-data-'));
  log(`starting the server on ${ORIGIN} (PGlite in ${dataDir})…`);
  const server = await startServer(dataDir);
  let home;
  const runs = [];
  try {
    home = await observeHomeInChromium(executablePath);
    for (let run = 1; run <= LIGHTHOUSE_RUNS; run += 1) {
      log(`lighthouse mobile run ${run}/${LIGHTHOUSE_RUNS}…`);
      const result = runLighthouse(executablePath, run);
      log(`  score ${result.score}, LCP ${Math.round(result.lcpMs)} ms, TBT ${Math.round(result.tbtMs)} ms, CLS ${result.cls?.toFixed(3)}`);
      if (result.lcpElement) log(`  LCP element: ${result.lcpElement}`);
      runs.push(result);
    }
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const { sizes, flow, gzipSize } = measureSizes(DIST, home);
  const medianRun = runs.find((run) => run.score === median(runs.map((r) => r.score)));
  const medianLcpMs = median(runs.map((run) => run.lcpMs));
  const results = [
    ...sizeResults(sizes),
    {
      budget: `Lighthouse mobile performance (median of ${runs.length})`,
      value: String(medianRun.score),
      limit: `>= ${BUDGETS.lighthouseMobileMin}`,
      pass: medianRun.score >= BUDGETS.lighthouseMobileMin,
    },
    {
      budget: `Lighthouse mobile LCP (median of ${runs.length})`,
      value: `${Math.round(medianLcpMs)} ms`,
      limit: `<= ${BUDGETS.lighthouseLcpMaxMs} ms`,
      pass: medianLcpMs <= BUDGETS.lighthouseLcpMaxMs,
    },
  ];

  console.log('');
  console.table(results.map((r) => ({ budget: r.budget, measured: r.value, limit: r.limit, result: r.pass ? 'PASS' : 'FAIL' })));
  console.log('Lighthouse runs (score / LCP / TBT / CLS):');
  for (const run of runs)
    console.log(`  ${run.score} / ${Math.round(run.lcpMs)} ms / ${Math.round(run.tbtMs)} ms / ${run.cls?.toFixed(3)}`);
  console.log('Booking home files:', [...home.js, ...home.css].map((file) => `${file} ${kb(gzipSize(file))} KB`).join(', '));

  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, memoryGb: Math.round(totalmem() / KB ** 3), node: process.version },
    budgets: BUDGETS,
    sizes: { ...sizes, homeFiles: { js: home.js, css: home.css }, flowFiles: { js: [...flow.js], css: [...flow.css] } },
    lighthouse: { runs, median: medianRun },
    results,
    pass: results.every((r) => r.pass),
  };
  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench-results', 'web.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote bench-results/web.json: ${report.pass ? 'all budgets pass' : 'a budget FAILS'}`);
  process.exitCode = report.pass ? 0 : 1;
}

main().catch((error) => {
  console.error('[bench-web]', error);
  process.exit(1);
});
