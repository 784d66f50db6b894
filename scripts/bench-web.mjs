// npm run bench:web: the website's performance budgets (docs/web.md#budgets).
//
// 1. Builds the website (minified) with the Vite manifest.
// 2. Starts the real server (src-server/main.ts) on a temporary PGlite with the demo provider.
// 3. Measures gzipped JS and CSS:
//    - booking home: every script and stylesheet Chromium downloads until the booking home is
//      interactive (the exam step's search field is enabled), observed in a real browser;
//    - whole booking flow: that set plus the static import closure of every chunk built from
//      src-web/features/booking (the later steps and their dialogs), and the chunk a failed
//      request loads (api/client.ts parses error bodies with the lazily loaded contract);
//    - the questionnaire modal (SurveyJS), beyond the flow: loaded only for exams that have a
//      questionnaire.
//    Sizes are gzip -9 of the built files, as the budgets are written in gzip.
// 4. Runs Lighthouse 12 (mobile preset, simulated throttling) 3 times on the booking home with
//    Debian Chromium and takes the median.
// Prints a table with pass/fail per budget and writes bench-results/web.json. Exits 1 when a
// budget fails.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist', 'web');
const PORT = Number(process.env.BENCH_WEB_PORT ?? 4330);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
/** The booking home is interactive when the exam search field can be typed into. */
const BOOKING_READY_SELECTOR = '[data-booking-ready="true"]';

const KB = 1024;
const BUDGETS = {
  homeJsGzipKb: 170,
  homeCssGzipKb: 50,
  flowJsGzipKb: 350,
  /** Our own budget: SurveyJS alone is about 350 KB gzipped. */
  questionnaireJsGzipKb: 380,
  lighthouseMobileMin: 90,
};

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

const gzipCache = new Map();
/** gzip -9 size of a built file, by its path under dist/web. */
function gzipSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length);
  return gzipCache.get(file);
}

function sum(files) {
  return [...files].reduce((total, file) => total + gzipSize(file), 0);
}

function readManifest() {
  return JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
}

/** The files a chunk needs before it runs: itself, its static imports (recursively) and their CSS. */
function staticClosure(manifest, key, into = { js: new Set(), css: new Set() }, seen = new Set()) {
  if (seen.has(key)) return into;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return into;
  if (chunk.file.endsWith('.js')) into.js.add(chunk.file);
  for (const css of chunk.css ?? []) into.css.add(css);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into, seen);
  return into;
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

/** The scripts and stylesheets a phone-sized Chromium downloads until the booking home is interactive. */
async function observeHome(executablePath) {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 667 } });
    const files = new Set();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === ORIGIN && /\.(js|css)$/.test(url.pathname)) files.add(url.pathname.replace(/^\//, ''));
    });
    await page.goto(`${ORIGIN}/`, { waitUntil: 'load' });
    await page.waitForSelector(BOOKING_READY_SELECTOR, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const js = [...files].filter((file) => file.endsWith('.js') && existsSync(join(DIST, file)));
    const css = [...files].filter((file) => file.endsWith('.css') && existsSync(join(DIST, file)));
    return { js, css };
  } finally {
    await browser.close();
  }
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
    lighthouseVersion: report.lighthouseVersion,
    userAgent: report.environment?.hostUserAgent ?? null,
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function kb(bytes) {
  return Math.round((bytes / KB) * 10) / 10;
}

async function main() {
  const executablePath = ensureChromium();
  if (!executablePath) process.exit(1);
  build();
  const manifest = readManifest();

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-data-'));
  log(`starting the server on ${ORIGIN} (PGlite in ${dataDir})…`);
  const server = await startServer(dataDir);
  let home;
  const runs = [];
  try {
    home = await observeHome(executablePath);
    for (let run = 1; run <= LIGHTHOUSE_RUNS; run += 1) {
      log(`lighthouse mobile run ${run}/${LIGHTHOUSE_RUNS}…`);
      const result = runLighthouse(executablePath, run);
      log(`  score ${result.score}, LCP ${Math.round(result.lcpMs)} ms, TBT ${Math.round(result.tbtMs)} ms, CLS ${result.cls?.toFixed(3)}`);
      runs.push(result);
    }
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }

  // The whole flow: the home plus everything the booking chunks and the error path need.
  const flow = { js: new Set(home.js), css: new Set(home.css) };
  const flowKeys = Object.keys(manifest).filter((key) => key.startsWith('features/booking/') || key.endsWith('src-contract/errors.ts'));
  for (const key of flowKeys) staticClosure(manifest, key, flow);
  if (!flowKeys.some((key) => key.startsWith('features/booking/')))
    throw new Error('no chunk from src-web/features/booking in the manifest');

  // The questionnaire modal (SurveyJS): loaded only once a chosen exam has a questionnaire, and
  // preloaded while the patient continues; counted apart from the flow it interrupts.
  const questionnaireKey = 'features/questionnaires/survey-modal.tsx';
  if (!manifest[questionnaireKey]) throw new Error(`no ${questionnaireKey} chunk in the manifest`);
  const questionnaire = staticClosure(manifest, questionnaireKey);
  const questionnaireJs = [...questionnaire.js].filter((file) => !flow.js.has(file));

  const sizes = {
    questionnaireJsGzipBytes: sum(questionnaireJs),
    homeJsGzipBytes: sum(home.js),
    homeCssGzipBytes: sum(home.css),
    flowJsGzipBytes: sum(flow.js),
    flowCssGzipBytes: sum(flow.css),
  };
  const medianRun = runs.find((run) => run.score === median(runs.map((r) => r.score)));
  const results = [
    {
      budget: 'booking home JS before interactive (gzip)',
      value: `${kb(sizes.homeJsGzipBytes)} KB`,
      limit: `<= ${BUDGETS.homeJsGzipKb} KB`,
      pass: sizes.homeJsGzipBytes <= BUDGETS.homeJsGzipKb * KB,
    },
    {
      budget: 'booking home CSS before interactive (gzip)',
      value: `${kb(sizes.homeCssGzipBytes)} KB`,
      limit: `<= ${BUDGETS.homeCssGzipKb} KB`,
      pass: sizes.homeCssGzipBytes <= BUDGETS.homeCssGzipKb * KB,
    },
    {
      budget: 'whole booking flow JS (gzip)',
      value: `${kb(sizes.flowJsGzipBytes)} KB`,
      limit: `<= ${BUDGETS.flowJsGzipKb} KB`,
      pass: sizes.flowJsGzipBytes <= BUDGETS.flowJsGzipKb * KB,
    },
    {
      budget: 'questionnaire modal JS beyond the flow (gzip)',
      value: `${kb(sizes.questionnaireJsGzipBytes)} KB`,
      limit: `<= ${BUDGETS.questionnaireJsGzipKb} KB (ours)`,
      pass: sizes.questionnaireJsGzipBytes <= BUDGETS.questionnaireJsGzipKb * KB,
    },
    {
      budget: `Lighthouse mobile performance (median of ${runs.length})`,
      value: String(medianRun.score),
      limit: `>= ${BUDGETS.lighthouseMobileMin}`,
      pass: medianRun.score >= BUDGETS.lighthouseMobileMin,
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
