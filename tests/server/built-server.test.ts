import { spawn, spawnSync } from 'node:child_process';
import nodeModule from 'node:module';
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

/**
 * The files node loads with `entry` (its static imports of sibling chunks, followed) and what they
 * hold: the packages they import from node_modules, and the packages bundled into them (esbuild
 * marks each bundled file with a `// node_modules/<package>/…` comment).
 */
function staticallyLoaded(outdir: string, entry: string): { packages: string[]; bundled: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const bundled = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(join(outdir, file), 'utf8');
    for (const [, specifier] of code.matchAll(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gms)) {
      if (specifier === undefined || specifier.startsWith('node:')) continue;
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
    for (const [, name] of code.matchAll(/^\/\/ node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//gm)) bundled.add(name!);
  };
  visit(entry);
  return { packages: [...packages], bundled: [...bundled] };
}

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

    // main.js turns the compile cache on, starts the embedded database's thread (pglite-early.js)
    // and then imports the bundle, server.js.
    expect(readFileSync(join(outdir, 'main.js'), 'utf8')).toMatch(
      /await import\('\.\/pglite-early\.js'\);\s*await import\('\.\/server\.js'\);/,
    );
    // PGlite loads in that thread only (db/pglite-thread), with its first use there.
    expect(readFileSync(join(outdir, 'pglite-thread.js'), 'utf8')).toBeTruthy();
    expect(
      readdirSync(outdir).filter(
        (name) => name.endsWith('.js') && readFileSync(join(outdir, name), 'utf8').includes('import("@electric-sql/pglite")'),
      ).length,
    ).toBe(1);
    // What loads at start: the bundle and the chunks it imports statically. The demo identity
    // provider (oidc-provider), the PDF reader and writer (pdf-lib), the image codecs and the S3
    // client load only when used.
    const atStart = staticallyLoaded(outdir, 'server.js');
    for (const lazy of [
      '@electric-sql/pglite',
      'oidc-provider',
      'sharp',
      'heic-decode',
      '@aws-sdk/client-s3',
      'survey-core',
      'sanitize-html',
    ])
      expect(atStart.packages).not.toContain(lazy);
    expect(atStart.bundled).toContain('fastify');
    // OpenTelemetry's SDK and exporter load only with an OTLP endpoint (its API is prom-client's, at start);
    // survey-core, nodemailer, sanitize-html and qrcode with their first use; node-postgres only with DATABASE_URL.
    for (const lazy of [
      'survey-core',
      'nodemailer',
      'sanitize-html',
      'postcss',
      'qrcode',
      'pg',
      'oidc-provider',
      '@cantoo/pdf-lib',
      '@react-email/render',
      '@opentelemetry/sdk-trace',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/otlp-transformer',
      '@opentelemetry/resources',
    ])
      expect(atStart.bundled).not.toContain(lazy);
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
      // The first start delivered the demo results: their PDFs were written (pdfkit found its
      // fonts) and checked (pdf-lib) by the built code, with nothing reported on stderr.
      expect(stderr).not.toMatch(/could not|Cannot find|Error/);
      // Node 22.1+ keeps V8's compiled code for the next start (written when the process ends).
      if ('enableCompileCache' in nodeModule) expect(readdirSync(join(outdir, '.compile-cache')).length).toBeGreaterThan(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 300_000);
});
