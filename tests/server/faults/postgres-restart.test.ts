import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookWithRetries, inParallel } from '../cluster/cluster-flows';
import { call, freeSlots, prepareBooking, sydneyDateIn } from '../cluster/cluster-kit';
import { createWebRoot } from '../helpers/build-server';
import { freePort, startServer, waitFor, type RunningServer } from '../helpers/spawned-server';

/**
 * PostgreSQL restarted under load: the real server on a PostgreSQL cluster of the test's own
 * (Debian's initdb and pg_ctl, on a spare port, run as the postgres user), with bookings streaming
 * in. While the database is away, requests are answered 503 (never 500) and readiness says
 * not-ready; the server is not restarted, its pool reconnects, every booking sent again with its
 * Idempotency-Key is made once, and every acknowledged booking is in the database afterwards.
 */

const POSTGRES_LIB = '/usr/lib/postgresql';
const EXAM = 'ct-brain';

function postgresBin(): string | null {
  if (!existsSync(POSTGRES_LIB)) return null;
  const version = readdirSync(POSTGRES_LIB).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version === undefined ? null : join(POSTGRES_LIB, version, 'bin');
  return bin !== null && existsSync(join(bin, 'pg_ctl')) ? bin : null;
}

const bin = postgresBin();
const skipReason =
  bin === null
    ? "Debian's PostgreSQL server binaries (initdb, pg_ctl) are not installed"
    : process.getuid?.() !== 0
      ? 'starting a PostgreSQL cluster as the postgres user needs root'
      : null;

/** pg_ctl and initdb refuse to run as root: they run as the postgres user. */
function asPostgres(command: string, args: string[]): void {
  execFileSync('runuser', ['-u', 'postgres', '--', join(bin!, command), ...args], { stdio: 'pipe' });
}

describe.skipIf(skipReason !== null)(`PostgreSQL restarted under load${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  const folder = mkdtempSync(join(tmpdir(), 'portal-pg-restart-'));
  const dataDir = join(folder, 'data');
  const socketDir = join(folder, 'socket');
  const webRoot = createWebRoot();
  let port = 0;
  let server: RunningServer;
  let base = '';
  const pgCtl = (action: string): void =>
    asPostgres('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(folder, 'postgres.log'),
      '-w',
      '-m',
      'fast',
      action,
      '-o',
      `-p ${port} -k ${socketDir}`,
    ]);

  beforeAll(async () => {
    port = await freePort();
    mkdirSync(socketDir);
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(folder, uid, gid);
    chownSync(socketDir, uid, gid);
    asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    pgCtl('start');
    const serverPort = await freePort();
    server = startServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
      DATA_DIR: join(folder, 'portal'),
      PORT: String(serverPort),
      WEB_ROOT: webRoot.dir,
      // Each booking comes from an address of its own (X-Forwarded-For), as behind a proxy.
      TRUST_PROXY: 'loopback',
    });
    await waitFor(server, /Portal server ready at/, 120_000);
    base = `http://127.0.0.1:${serverPort}`;
  }, 180_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exit;
    }
    try {
      pgCtl('stop');
    } catch {
      // Already stopped.
    }
    webRoot.remove();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers 503 while the database is away, reconnects by itself, and keeps every acknowledged booking', async () => {
    const from = sydneyDateIn(3);
    const slots = (await freeSlots(base, EXAM, 'parramatta', from, 7)).slice(0, 24);
    expect(slots.length).toBe(24);
    const attempts = await inParallel(slots, 3, (slot) =>
      prepareBooking(base, { exam: EXAM, clinicSlug: 'parramatta', startsAt: slot.startsAt }, 'restart'),
    );

    let acknowledged = 0;
    let restarted: Promise<void> | null = null;
    const readiness: number[] = [];
    const results = await inParallel(attempts, 3, async (attempt) => {
      const result = await bookWithRetries(base, attempt, 40);
      if (result.final?.status === 201) acknowledged += 1;
      if (acknowledged >= 6 && restarted === null) {
        restarted = (async () => {
          asPostgres('pg_ctl', ['-D', dataDir, '-w', '-m', 'fast', 'stop']);
          readiness.push((await call(base, 'GET', '/api/health/ready')).status);
          await new Promise((resolve) => setTimeout(resolve, 1500));
          pgCtl('start');
        })();
      }
      return result;
    });
    await restarted;

    // While it was away the server said so: not ready, and 503 (never a 500) to the bookings.
    expect(readiness).toEqual([503]);
    const failures = results.flatMap((result) => result.failures);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure).toMatch(/^503 /);
    // Every booking was made in the end, each once, and the same server is ready again.
    expect(
      results.map((result) => result.final?.status),
      results.map((result) => result.failures.join(' | ')).join('\n'),
    ).toEqual(attempts.map(() => 201));
    expect(server.child.exitCode).toBeNull();
    expect((await call(base, 'GET', '/api/health/ready')).status).toBe(200);
    const keys = results.map((result) => result.final!.json<{ bookingKey: string }>().bookingKey);
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await client.connect();
    try {
      const rows = await client.query<{ booking_key: string }>('select booking_key from appointment where booking_key = any($1::text[])', [
        keys,
      ]);
      expect(rows.rows.map((row) => row.booking_key).sort()).toEqual([...keys].sort());
    } finally {
      await client.end();
    }
  }, 300_000);
});
