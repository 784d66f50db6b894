import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src-server/db/data-dir-lock';
import { DEMO_APPOINTMENT_KEY } from '../../src-server/db/seed/demo-marker';
import { backends, createPostgresDatabase, dropPostgresDatabase, postgresUrlFor } from './helpers/database';
import { createWebRoot } from './helpers/build-server';
import { get } from './helpers/http-get';
import { freePort, startServer, waitFor, type RunningServer } from './helpers/spawned-server';

/**
 * The real entry point, as `npm start` runs it: `node --import tsx src-server/main.ts` in a child
 * process, with its environment, exit codes and messages.
 */

const running: RunningServer[] = [];
const folders: string[] = [];
const webRoot = createWebRoot();

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-main-'));
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const server of running.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  webRoot.remove();
});

describe('src-server/main.ts on the embedded database', () => {
  it('refuses a second server on the same DATA_DIR, then shuts the first down cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const first = startServer({ DATA_DIR: dataDir, PORT: String(port), WEB_ROOT: webRoot.dir });
    running.push(first);
    await waitFor(first, /Portal server ready at/);
    expect(first.output()).toContain(`Portal server ready at http://localhost:${port}`);
    expect(first.output()).toContain('(demo provider seeded now)');
    // Only the demo provider's own demo appointment is linked, never another patient's booking.
    expect(first.output()).toContain(`demo appointment: http://localhost:${port}/appointments/${DEMO_APPOINTMENT_KEY}`);
    expect(first.output().match(/\/appointments\//g)).toHaveLength(1);
    expect(first.output()).toContain(`mail outbox:      http://localhost:${port}/dev/outbox (on: the demo provider is served`);
    expect(first.output()).toContain(`kiosk:            http://localhost:${port}/kiosk?kioskMode=true`);
    expect(first.output()).toContain(`embedded page:    http://localhost:${port}/iframe/select-region`);
    expect(existsSync(join(dataDir, LOCK_FILE_NAME))).toBe(true);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), WEB_ROOT: webRoot.dir });
    running.push(second);
    const secondExit = await second.exit;
    expect(secondExit).not.toBe(0);
    expect(second.errors().trim()).toBe(
      `Another portal server (pid ${first.child.pid}) is already using DATA_DIR ${dataDir}; stop it or set DATA_DIR to another folder`,
    );

    // The first server is unharmed and still answers.
    expect((await get(port, '/api/health')).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE_NAME))).toBe(false);

    // A restart on the same folder opens the same database: no second seed.
    const third = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), WEB_ROOT: webRoot.dir });
    running.push(third);
    await waitFor(third, /Portal server ready at/);
    expect(third.output()).not.toContain('seeded now');
    third.child.kill('SIGINT');
    expect(await third.exit).toBe(0);
    // Three server starts, the first seeding a database: over a minute on a loaded CI machine.
  }, 180_000);

  it('stops with one clear line per bad configuration value and exit code 1', async () => {
    const server = startServer({ PORT: 'abc', EMBED_ORIGINS: 'not-an-origin', DATA_DIR: tempDir() });
    running.push(server);
    expect(await server.exit).toBe(1);
    expect(server.errors()).toBe(
      'Configuration problems:\n' +
        "- PORT: must be a whole number from 1 to 65535, got 'abc'\n" +
        "- EMBED_ORIGINS: 'not-an-origin' is not an http(s) origin such as https://www.example.com (no path)\n",
    );
  });

  it('refuses NODE_ENV=production without a session secret, an https PUBLIC_URL and SMTP', async () => {
    const server = startServer({ NODE_ENV: 'production', DATA_DIR: tempDir() });
    running.push(server);
    expect(await server.exit).toBe(1);
    expect(server.errors()).toContain('- SESSION_SECRET: is required with NODE_ENV=production');
    expect(server.errors()).toContain('- PUBLIC_URL: is required with NODE_ENV=production');
    expect(server.errors()).toContain('- SMTP_HOST: is required with NODE_ENV=production');
    expect(server.output()).toBe('');
  });

  it('stops with one line naming DATABASE_URL, password hidden, when PostgreSQL cannot be reached', async () => {
    const server = startServer({ DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/x', DATA_DIR: tempDir() });
    running.push(server);
    expect(await server.exit).toBe(1);
    expect(server.errors()).toBe(
      'Cannot reach the database at DATABASE_URL (postgres://127.0.0.1:1/x, password hidden): connect ECONNREFUSED 127.0.0.1:1\n',
    );
    expect(server.output()).toBe('');
  });
});

describe.runIf(backends().includes('postgres'))('src-server/main.ts on PostgreSQL', () => {
  let name = '';
  afterAll(async () => {
    if (name) await dropPostgresDatabase(name);
  });

  it('migrates, seeds, serves and shuts down cleanly with DATABASE_URL', async () => {
    name = await createPostgresDatabase();
    const port = await freePort();
    const server = startServer({ DATABASE_URL: postgresUrlFor(name), PORT: String(port), DATA_DIR: tempDir(), WEB_ROOT: webRoot.dir });
    running.push(server);
    await waitFor(server, /Portal server ready at/);
    expect(server.output()).toMatch(
      /database: PostgreSQL at postgres:\/\/127\.0\.0\.1:5432\/portal_test_[0-9a-f]+ \(demo provider seeded now\)/,
    );
    expect(JSON.parse((await get(port, '/api/health')).body)).toMatchObject({ status: 'ok', database: 'ok' });
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  });
});
