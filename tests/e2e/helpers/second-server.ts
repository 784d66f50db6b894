import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createPglite } from '../../../src-server/db/connection';
import { E2E_PORT } from './servers';

/**
 * A second portal server for a journey that needs provider settings the shared e2e server must not
 * have (every other journey sees the demo provider as seeded). It runs the real server on its own
 * embedded database: started once to seed the demo provider, stopped, given the settings with
 * `prepare` (SQL on its PGlite), and started again. Mail goes to the e2e SMTP server as the shared
 * server's does (tests/e2e/helpers/mail.ts reads it).
 */
export interface SecondServer {
  origin: string;
  stop(): Promise<void>;
}

async function waitForHealth(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the second server stopped at start (exit ${String(child.exitCode)})`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the second server did not start within 120 s');
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startSecondServer(name: string, portOffset: number, prepare: string[]): Promise<SecondServer> {
  const port = E2E_PORT + portOffset;
  const origin = `http://127.0.0.1:${String(port)}`;
  const dataDir = join(process.cwd(), 'test-results', `e2e-data-${name}`);
  rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: process.env.E2E_SMTP_PORT ?? '4325',
    SMTP_FROM: 'Harbour & Range Radiology <bookings@harbourrange.example>',
    OUTBOX_POLL_MS: '200',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const start = async (): Promise<ChildProcess> => {
    // Its start banner would repeat the shared server's in the run's log; its errors still show.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    await waitForHealth(origin, child);
    return child;
  };

  await stopChild(await start());
  const pglite = await createPglite({ dataDir: join(dataDir, 'pglite') });
  try {
    for (const sql of prepare) await pglite.query(sql);
  } finally {
    await pglite.close();
  }
  const child = await start();
  return {
    origin,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
