import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitFor, type RunningServer } from '../helpers/spawned-server';
import { newPlace, type Place } from './backup-kit';

// The commands as clinic IT runs them (npm run backup / restore run this same entry), against a
// real server on PGlite: refused while the server holds DATA_DIR, then taken once it has stopped.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function runCli(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/db/backup/cli.ts', ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run backup and restore beside a running server (PGlite)', () => {
  const places: Place[] = [];
  let server: RunningServer | null = null;
  afterAll(async () => {
    if (server !== null && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exit;
    }
    for (const place of places) await place.remove();
  });

  it('refuses a backup while a server holds DATA_DIR, saying to stop it; backs up and restores once it has stopped', async () => {
    const source = await newPlace('pglite');
    const target = await newPlace('pglite');
    places.push(source, target);
    const archive = join(source.config.dataDir, 'cli-backup.tar');

    server = startServer({ DATA_DIR: source.config.dataDir, PORT: String(await freePort()) });
    await waitFor(server, /ready at/, 120_000);
    const refused = await runCli(['backup', archive], source.config.dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `A portal server \\(pid ${server.child.pid}\\) is using DATA_DIR .*stop the server, run npm run backup again.*Nothing was written`,
      ),
    );
    expect(existsSync(archive)).toBe(false);

    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    const taken = await runCli(['backup', archive], source.config.dataDir);
    expect(taken.stderr).toBe('');
    expect(taken.stdout).toMatch(/Backup written: .*cli-backup\.tar[\s\S]* [1-9][0-9]* appointments/);
    expect(taken.code).toBe(0);

    const restored = await runCli(['restore', archive], target.config.dataDir);
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toMatch(/Restored .* into PGlite/);
    const again = await runCli(['restore', archive], target.config.dataDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/The target is not empty: it holds the PGlite database in .*Nothing was changed/);
    rmSync(archive, { force: true });
  }, 240_000);
});
