// Several portal servers on one PostgreSQL behind nginx (docs/server.md#running-several-servers):
//
//   DATABASE_URL=postgres://… npm run cluster            two servers, nginx on a free port
//   DATABASE_URL=postgres://… npm run cluster -- --servers 3 --port 8080
//
// The built servers (dist/server, built first when stale) each listen on a free port of
// 127.0.0.1 and are started one after another (the first applies the migrations and seeds);
// nginx, from resources/nginx/cluster.conf.template, passes requests to them. Ctrl-C stops
// everything. tests/server/cluster/ starts the same set-up through startCluster().
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_MAIN = join(ROOT, 'dist', 'server', 'main.js');
const TEMPLATE = join(ROOT, 'resources', 'nginx', 'cluster.conf.template');

/** Debian's nginx (apt-get install nginx-light), or NGINX_BIN. */
export function nginxBinary() {
  return process.env.NGINX_BIN ?? '/usr/sbin/nginx';
}

/** Why a cluster cannot start on this machine (no nginx), or null when it can. */
export function clusterUnavailable() {
  return existsSync(nginxBinary()) ? null : `${nginxBinary()} is missing (Debian: apt-get install nginx-light)`;
}

/** Why this environment cannot run several servers, or null: they need one PostgreSQL. */
export function databaseProblem(env) {
  if (env.DATABASE_URL) return null;
  return (
    'several servers need one PostgreSQL: set DATABASE_URL. PGlite, the default, is a database inside one ' +
    'process (DATA_DIR/server.lock refuses a second server on it).'
  );
}

/** A TCP port nothing listens on right now on 127.0.0.1. */
export async function freePort() {
  const probe = createServer();
  await new Promise((done, fail) => probe.once('error', fail).listen(0, '127.0.0.1', done));
  const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
  await new Promise((done) => probe.close(done));
  return port;
}

/** The nginx configuration for these servers, from the template. */
export function renderNginxConfig({ prefix, listen, upstreams }) {
  const servers = upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=10s;`).join('\n');
  return readFileSync(TEMPLATE, 'utf8')
    .replaceAll('{{PREFIX}}', prefix)
    .replaceAll('{{LISTEN}}', listen)
    .replace('{{UPSTREAM_SERVERS}}', servers);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Waits until `check` answers true, failing when `gone` answers a reason or after timeoutMs. */
async function waitUntil(what, check, gone, timeoutMs) {
  const started = Date.now();
  for (;;) {
    const reason = gone();
    if (reason !== null) throw new Error(`${what}: ${reason}`);
    if (await check().catch(() => false)) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Whether GET url answers 200. */
async function answers200(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  return response.status === 200;
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port) {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Collects a child's output line by line and hands each line to `onLine`. */
function readLines(stream, onLine) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

/** A child process's end as a promise, and its state now. */
function watchExit(child) {
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const gone = () => (child.exitCode === null && child.signalCode === null ? null : `exited (${child.exitCode ?? child.signalCode})`);
  return { exited, gone };
}

/** Stops a child with `signal`, then SIGKILL after timeoutMs; answers when it has exited. */
async function stopChild(child, exited, signal = 'SIGTERM', timeoutMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/**
 * One built server on `port`, answered once /api/health/ready says 200.
 * @param {{ name: string, port: number, env: Record<string, string | undefined>, onLine: (name: string, line: string) => void, timeoutMs?: number }} options
 */
export async function startPortalServer({ name, port, env, onLine, timeoutMs = 120_000 }) {
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_MAIN], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  const record = (line) => {
    output.push(line);
    onLine(name, line);
  };
  readLines(child.stdout, record);
  readLines(child.stderr, record);
  const { exited, gone } = watchExit(child);
  const url = `http://127.0.0.1:${port}`;
  const failure = () => {
    const reason = gone();
    return reason === null ? null : `${reason}\n${output.slice(-30).join('\n')}`;
  };
  await waitUntil(`${name} on port ${port}`, () => answers200(`${url}/api/health/ready`), failure, timeoutMs);
  return {
    name,
    port,
    url,
    child,
    exited,
    output: () => output.join('\n'),
    /** Ends the process at once (SIGKILL: a crash, nothing cleaned up) or gracefully (SIGTERM). */
    kill: (signal = 'SIGKILL') => stopChild(child, exited, signal),
  };
}

/** nginx in the foreground on `port`, its configuration and logs in `prefix`. */
export async function startNginx({ prefix, port, upstreams, onLine }) {
  mkdirSync(prefix, { recursive: true });
  // nginx's workers run as nobody when it is started as root: they must reach the folder.
  chmodSync(prefix, 0o755);
  const config = join(prefix, 'nginx.conf');
  writeFileSync(config, renderNginxConfig({ prefix, listen: `127.0.0.1:${port}`, upstreams }));
  const child = spawn(nginxBinary(), ['-p', prefix, '-c', config, '-e', join(prefix, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  readLines(child.stdout, (line) => onLine('nginx', line));
  readLines(child.stderr, (line) => onLine('nginx', line));
  const { exited, gone } = watchExit(child);
  const errorLog = () => (existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : '');
  const failure = () => {
    const reason = gone();
    return reason === null ? null : `${reason}\n${errorLog()}`;
  };
  await waitUntil(`nginx on port ${port}`, () => listening(port), failure, 15_000);
  return { port, url: `http://127.0.0.1:${port}`, child, exited, errorLog, stop: () => stopChild(child, exited, 'SIGQUIT') };
}

/**
 * Starts `servers` built servers on env.DATABASE_URL and nginx in front of them.
 * @param {{ servers?: number, port?: number, env?: Record<string, string | undefined>, onLine?: (name: string, line: string) => void }} options
 */
export async function startCluster(options = {}) {
  const env = { ...process.env, ...options.env };
  const refused = databaseProblem(env) ?? clusterUnavailable();
  if (refused !== null) throw new Error(refused);
  const onLine = options.onLine ?? (() => {});
  const count = options.servers ?? 2;
  const folder = mkdtempSync(join(tmpdir(), 'portal-cluster-'));
  // The proxy is on this machine: its connections come from 127.0.0.1.
  const serverEnv = { TRUST_PROXY: '127.0.0.1', ...env };
  const started = [];
  let nginx = null;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(started.map((server) => server.kill('SIGTERM')));
    rmSync(folder, { recursive: true, force: true });
  };
  const startOne = async (index) => {
    const name = `server ${String.fromCharCode(65 + index)}`;
    const dataDir = serverEnv.DATA_DIR ?? join(folder, `data-${index + 1}`);
    const server = await startPortalServer({ name, port: await freePort(), env: { ...serverEnv, DATA_DIR: dataDir }, onLine });
    started.push(server);
    return server;
  };
  try {
    // The first alone (it migrates and seeds a new database), then the rest together.
    await startOne(0);
    const rest = await Promise.allSettled(Array.from({ length: count - 1 }, (_, index) => startOne(index + 1)));
    const failed = rest.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    started.sort((a, b) => a.name.localeCompare(b.name));
    const port = options.port ?? (await freePort());
    nginx = await startNginx({
      prefix: join(folder, 'nginx'),
      port,
      upstreams: started.map((server) => `127.0.0.1:${server.port}`),
      onLine,
    });
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { url: nginx.url, nginx, servers: started, folder, stop };
}

/** Builds dist/server when it is missing or stale (as npm start does). */
export async function ensureClusterBuilt() {
  const { ensureServerBuilt } = await import('./start.mjs');
  await ensureServerBuilt();
}

function parseArguments(argv) {
  const options = { servers: 2, port: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const value = Number(argv[index + 1]);
    if (argv[index] === '--servers' && Number.isInteger(value) && value >= 1) options.servers = value;
    else if (argv[index] === '--port' && Number.isInteger(value) && value > 0) options.port = value;
    else throw new Error(`unknown argument ${argv[index]} (use --servers N, --port P)`);
    index += 1;
  }
  return options;
}

async function main() {
  const { servers, port } = parseArguments(process.argv.slice(2));
  const refused = databaseProblem(process.env) ?? clusterUnavailable();
  if (refused !== null) throw new Error(refused);
  if (!process.env.S3_BUCKET)
    console.warn('[cluster] S3_BUCKET is not set: each server keeps uploaded files in its own DATA_DIR, which the others cannot read');
  await ensureClusterBuilt();
  const cluster = await startCluster({ servers, port, onLine: (name, line) => console.log(`[${name}] ${line}`) });
  console.log(`[cluster] ${servers} servers (${cluster.servers.map((server) => server.url).join(', ')}) behind nginx at ${cluster.url}`);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    console.log('[cluster] stopping');
    cluster.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // A server or nginx that ends on its own ends the cluster.
  for (const part of [...cluster.servers, cluster.nginx]) {
    void part.exited.then(({ code, signal }) => {
      if (stopping) return;
      console.error(`[cluster] ${part.name ?? 'nginx'} exited (${code ?? signal}); stopping the rest`);
      shutdown();
    });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[cluster] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
