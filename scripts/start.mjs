// `npm start`: builds what is missing or older than its sources, then runs the built server with
// plain node (`node --enable-source-maps dist/server/main.js`), passing SIGINT/SIGTERM on to it
// and ending with its exit code.
//
// - The website (dist/web) is rebuilt when dist/web/index.html is missing or older than a file
//   under src-web/ or src-contract/, or than vite.web.config.ts.
// - The server (dist/server) is rebuilt when dist/server/main.js is missing or older than a file
//   under src-server/ or src-contract/, or than scripts/build-server.mjs or package-lock.json
//   (the packages are bundled into it).
// The check compares modification times only (cheap: no hashing, no reading of files).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-server.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_MAIN = join(ROOT, 'dist', 'server', 'main.js');

/** The newest modification time (ms) of a file or of any file under a folder; 0 when missing. */
function newestMtime(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** True when the output is missing or older than one of its sources (paths from the root). */
export function isStale(output, sources) {
  const built = newestMtime(join(ROOT, output));
  return built === 0 || sources.some((source) => newestMtime(join(ROOT, source)) > built);
}

/** Builds the website and the server where they are missing or stale. */
export async function ensureBuilt() {
  if (isStale('dist/web/index.html', ['src-web', 'src-contract', 'vite.web.config.ts'])) {
    console.log('[start] building the website (dist/web)');
    const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    const result = spawnSync(process.execPath, [vite, 'build', '--config', 'vite.web.config.ts'], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`the website build failed (exit code ${result.status ?? result.signal})`);
  }
  await ensureServerBuilt();
}

/** Builds the server where it is missing or stale (the end-to-end journeys run it too). */
export async function ensureServerBuilt() {
  if (isStale('dist/server/main.js', ['src-server', 'src-contract', 'scripts/build-server.mjs', 'package-lock.json'])) {
    console.log('[start] building the server (dist/server)');
    await buildServer();
  }
}

/** Runs the built server in a child process; signals go on to it; answers its exit code. */
function runServer() {
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_MAIN, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  return new Promise((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(code ?? (signal === 'SIGINT' ? 130 : signal ? 143 : 1)));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureBuilt();
  } catch (error) {
    console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  process.exitCode = await runServer();
}
