// `npm test`: every suite in one run — typecheck, lint, the kiosk's Electron audit, the vitest
// projects (server, web, kiosk main process), the Playwright journeys in Chromium and the
// benchmarks' smoke run — then one totals line: "N passed, N failed, N skipped". Exits non-zero
// when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureChromium } from './chromium.mjs';

const results = []; // { suite, passed, failed, skipped, note? }
const failures = []; // "suite: file › test" and its error's first lines, for every failed test, repeated above the totals

/** The first lines of a test's error, indented under its name: CI keeps only the end of the output. */
function firstLines(message, count = 6) {
  if (!message) return '';
  const lines = String(message)
    // The terminal's colour codes (ESC [ … m) that the runners write into their messages.
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, count);
  return lines.map((line) => `\n    ${line.slice(0, 300)}`).join('');
}
const npx = (args, env = {}) => spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

function check(suite, args) {
  console.log(`\n=== ${suite}: npx ${args.join(' ')}`);
  const ok = npx(args) === 0;
  results.push({ suite, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 });
  return ok;
}

/**
 * A suite that prints its own "N passed, N failed[, N skipped]" line (one word and a colon may
 * stand before it); the last such line is its count, and a non-zero exit without failures counts one.
 */
function summarised(suite, command, args) {
  console.log(`\n=== ${suite}: ${command} ${args.join(' ')}`);
  const run = spawnSync(command, args, { encoding: 'utf8', env: process.env });
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  const match = [...(run.stdout ?? '').matchAll(/^(?:[\w-]+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].at(-1);
  if (!match) {
    results.push({ suite, passed: 0, failed: 1, skipped: 0, note: `exit ${run.status}, no summary line` });
    return;
  }
  const failed = Number(match[2]) || (run.status === 0 ? 0 : 1);
  results.push({ suite, passed: Number(match[1]), failed, skipped: Number(match[3] ?? 0) });
}

/** The Playwright JSON report's tests whose outcome was not the expected one (failed or flaky). */
function failedJourneys(report) {
  const names = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = (test.results ?? []).map((result) => result.error?.message).find(Boolean);
          names.push(`${spec.file} › ${[...titles, spec.title].join(' › ')} (${test.status})${firstLines(error)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return names;
}

mkdirSync('test-results', { recursive: true });

check('typecheck', ['tsc', '-b']);
check('lint', ['eslint', '.']);
check('format', ['prettier', '--check', '.']);
// The kiosk's Electron security audit: fails on any HIGH finding (docs/rules/kiosk.md#audit).
summarised('electronegativity', process.execPath, ['scripts/electronegativity.mjs']);

/**
 * One vitest run, counted per project from its JSON report. `label` tells a second run apart in the
 * summary; `node` is the Node.js binary that runs vitest (its workers inherit it); `backends` narrows
 * the server suites' databases (TEST_BACKENDS, tests/server/helpers/database.ts).
 */
function vitestRun({ label = '', node = process.execPath, projects = [], backends = '', files = [] } = {}) {
  const json = `test-results/vitest-results${label ? `-${label.replace(/\W+/g, '-')}` : ''}.json`;
  rmSync(json, { force: true });
  const only = projects.flatMap((project) => ['--project', project]);
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    ...only,
    ...files,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ];
  const what = projects.length ? projects.join(', ') : 'server, web, main';
  const databases = backends || (process.env.DATABASE_URL ? 'pglite,postgres' : 'pglite');
  console.log(`\n=== vitest (${what})${label ? ` ${label}` : ''} — server suites on ${databases}`);
  const env = backends ? { ...process.env, TEST_BACKENDS: backends } : process.env;
  const status = spawnSync(node, args, { stdio: 'inherit', env }).status ?? 1;
  const suffix = label ? ` ${label}` : '';
  if (!existsSync(json)) {
    results.push({ suite: `vitest${suffix}`, passed: 0, failed: 1, skipped: 0, note: 'no report written' });
    return;
  }
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const bySuite = new Map();
  for (const file of report.testResults ?? []) {
    const suite = file.name.includes('/tests/server/') ? 'server' : file.name.includes('/tests/web/') ? 'web' : 'main';
    const counts = bySuite.get(suite) ?? { passed: 0, failed: 0, skipped: 0 };
    const assertions = file.assertionResults ?? [];
    const where = relative(process.cwd(), file.name);
    if (assertions.length === 0 && file.status === 'failed') {
      counts.failed += 1; // a file that failed to load
      failures.push(`vitest ${suite}${suffix}: ${where} (did not load)${firstLines(file.message)}`);
    }
    for (const assertion of assertions) {
      if (assertion.status === 'passed') counts.passed += 1;
      else if (assertion.status === 'failed') {
        counts.failed += 1;
        failures.push(
          `vitest ${suite}${suffix}: ${where} › ${assertion.fullName ?? assertion.title}${firstLines(assertion.failureMessages?.[0])}`,
        );
      } else counts.skipped += 1;
    }
    bySuite.set(suite, counts);
  }
  for (const suite of projects.length ? projects : ['server', 'web', 'main']) {
    const counts = bySuite.get(suite) ?? { passed: 0, failed: 0, skipped: 0 };
    results.push({ suite: `vitest ${suite}${suffix}`, ...counts });
  }
  if (status !== 0 && ![...bySuite.values()].some((c) => c.failed > 0)) {
    results.push({ suite: `vitest run${suffix}`, passed: 0, failed: 1, skipped: 0, note: `exit ${status}` });
  }
}

// CI (.ci/run) installs a second supported Node.js release and names it here: the server suites
// run once more on it, since the server is what a provider runs on either release. With PostgreSQL
// there too, each release takes one database: every suite on PGlite on the first, the suites that
// reach PostgreSQL on PostgreSQL on the second. Every database and every release is covered without
// running everything four times (that took 48 of CI's 90 minutes).
const secondNode = process.env.PORTAL_SECOND_NODE;

/**
 * The server test files that reach PostgreSQL: those choosing their databases with backends() or
 * naming PostgreSQL themselves. The others (pure logic, PGlite's own behaviour) have nothing to
 * show on PostgreSQL, and run on the first release.
 */
function postgresTestFiles(directory = 'tests/server') {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return postgresTestFiles(path);
    if (!entry.name.endsWith('.test.ts')) return [];
    return /backends\(\)|createPostgresDatabase|postgresAdminUrl|DATABASE_URL/.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

const splitDatabases = Boolean(secondNode && process.env.DATABASE_URL && !process.env.TEST_BACKENDS);
vitestRun({ backends: splitDatabases ? 'pglite' : '' });
if (secondNode) {
  const version = spawnSync(secondNode, ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'second node';
  const database = splitDatabases ? ', PostgreSQL' : '';
  vitestRun({
    label: `(node ${version.replace(/^v/, '')}${database})`,
    node: secondNode,
    projects: ['server'],
    backends: splitDatabases ? 'postgres' : '',
    files: splitDatabases ? postgresTestFiles() : [],
  });
}

// End-to-end: the real server serving the built web app, driven in Chromium.
if (check('build web', ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'])) {
  const chromium = ensureChromium();
  if (!chromium) {
    results.push({ suite: 'e2e', passed: 0, failed: 1, skipped: 0, note: 'no Chromium' });
  } else {
    const e2eJson = 'test-results/e2e-results.json';
    rmSync(e2eJson, { force: true });
    console.log('\n=== e2e (Playwright, Chromium)');
    const status = npx(['playwright', 'test'], { CHROMIUM_PATH: chromium });
    if (existsSync(e2eJson)) {
      const report = JSON.parse(readFileSync(e2eJson, 'utf8'));
      const stats = report.stats ?? {};
      failures.push(...failedJourneys(report).map((name) => `e2e: ${name}`));
      const failed = (stats.unexpected ?? 0) + (stats.flaky ?? 0);
      results.push({ suite: 'e2e', passed: stats.expected ?? 0, failed: failed || (status === 0 ? 0 : 1), skipped: stats.skipped ?? 0 });
    } else {
      results.push({ suite: 'e2e', passed: 0, failed: 1, skipped: 0, note: `exit ${status}, no report` });
    }
  }
} else {
  results.push({ suite: 'e2e', passed: 0, failed: 1, skipped: 0, note: 'web build failed' });
}

// Every benchmark script once on tiny data: proves each runs to the end (timings are not judged;
// they are measured by `npm run bench` on a quiet machine).
summarised('bench smoke', process.execPath, ['--import', 'tsx', 'tests/bench/run.ts', '--smoke']);

if (failures.length > 0) {
  console.log('\n=== failed tests');
  for (const failure of failures) console.log(failure);
}
console.log('\n=== summary');
for (const r of results) {
  console.log(`${r.suite.padEnd(16)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.note ? ` (${r.note})` : ''}`);
}
const total = results.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
