import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script shared with `npm run kiosk`; it has no type declarations.
import { installedElectronBinary } from '../../../scripts/electron-binary.mjs';

/**
 * Security checklist A5 on a packaging machine: package the Linux app (the `dir` target needs no
 * download beyond the Electron binary itself) and read the fuses back from the binary. Skipped,
 * with the reason, where the Electron binary is not installed (it cannot be downloaded here).
 */
const projectRoot = path.resolve(import.meta.dirname, '../../..');
const electronDir = path.join(projectRoot, 'node_modules', 'electron');
const binary = (installedElectronBinary as (dir: string) => string | null)(electronDir);
/** A fuse is one ASCII byte in the binary's fuse wire: '0' off, '1' on. */
const DISABLE = '0'.charCodeAt(0);
const ENABLE = '1'.charCodeAt(0);
const output = mkdtempSync(path.join(tmpdir(), 'kiosk-release-'));

afterAll(() => rmSync(output, { recursive: true, force: true }));

describe('packaged kiosk', () => {
  it('has the hardened fuses flipped in its Electron binary', async (context) => {
    if (!binary)
      context.skip(
        'the Electron binary is not installed (node_modules/electron/dist); run node scripts/electron-binary.mjs where Electron releases can be reached',
      );
    const run = (args: string[]) => spawnSync('npx', args, { cwd: projectRoot, encoding: 'utf8', timeout: 480_000 });
    expect(run(['electron-vite', 'build']).status).toBe(0);
    const packaged = run([
      'electron-builder',
      '--linux',
      'dir',
      '--publish',
      'never',
      `--config.electronDist=${path.join(electronDir, 'dist')}`,
      `--config.directories.output=${output}`,
    ]);
    expect(packaged.status, packaged.stderr).toBe(0);
    const { FuseV1Options, getCurrentFuseWire } = await import('@electron/fuses');
    const wire = await getCurrentFuseWire(path.join(output, 'linux-unpacked', 'patient-portal-kiosk'));
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspect: wire[FuseV1Options.EnableNodeCliInspectArguments],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      fileProtocol: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual({
      runAsNode: DISABLE,
      cookieEncryption: ENABLE,
      nodeOptions: DISABLE,
      inspect: DISABLE,
      asarIntegrity: ENABLE,
      onlyAsar: ENABLE,
      fileProtocol: DISABLE,
    });
  }, 900_000);
});
