import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebRoot } from './helpers/build-server';
import { get } from './helpers/http-get';
import { freePort } from './helpers/spawned-server';

/**
 * The built server (`npm run build:server`, scripts/build-server.mjs) runs with plain node, as
 * `npm start` runs it: built into a folder of its own, started on PGlite in a temporary DATA_DIR,
 * it migrates, answers /api/health and the files it reads at run time, and stops on SIGTERM.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const folders: string[] = [];
const webRoot = createWebRoot();

function tempDir(prefix: string, parent: string = tmpdir()): string {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, prefix));
  folders.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  webRoot.remove();
});

async function waitForHealth(port: number, exited: () => boolean, errors: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (exited()) throw new Error(`the built server exited before answering:\n${errors()}`);
    if (Date.now() - started > 120_000) throw new Error(`the built server did not answer within 120 s:\n${errors()}`);
    const status = await get(port, '/api/health').then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the built server (dist/server) with plain node', () => {
  it('builds, starts on PGlite, answers /api/health and its run-time files, and exits cleanly on SIGTERM', async () => {
    // Inside the checkout (dist/ is ignored), as dist/server is: node_modules is found from there.
    const outdir = tempDir('server-test-', join(ROOT, 'dist'));
    const build = spawnSync(process.execPath, ['scripts/build-server.mjs', outdir], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);

    // The demo identity provider (oidc-provider) and the demo PACS stay out of what main.js loads at start.
    const main = readFileSync(join(outdir, 'main.js'), 'utf8');
    const staticImports = [...main.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(staticImports).not.toContain('oidc-provider');
    expect(readdirSync(outdir).filter((name) => name.endsWith('.sql'))).toEqual([]);
    expect(readdirSync(join(outdir, 'migrations')).length).toBe(readdirSync(join(ROOT, 'src-server/db/migrations')).length);

    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: tempDir('portal-built-data-'), PORT: String(port) };
    delete env.DATABASE_URL;
    Object.assign(env, { HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_ROOT: webRoot.dir });
    const child = spawn(process.execPath, [join(outdir, 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitForHealth(
        port,
        () => child.exitCode !== null,
        () => stderr,
      );
      // Files read through import.meta.url: the embed script (resources/) and the seeded demo provider.
      const embed = await get(port, '/embed.js');
      expect(embed.status).toBe(200);
      expect(embed.body).toBe(readFileSync(join(ROOT, 'resources/embed/embed.js'), 'utf8'));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 300_000);
});
