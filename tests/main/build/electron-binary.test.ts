import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script shared with `npm run kiosk`; it has no type declarations.
import { ensureElectronBinary } from '../../../scripts/electron-binary.mjs';

/**
 * `npm ci` never downloads Electron (package.json denies its postinstall), so the kiosk commands
 * fetch the binary when first needed. Each case builds an electron package folder whose install.js
 * behaves like the real one would: it succeeds, or fails the way a machine without internet does.
 */

type EnsureResult = { ok: true; binary: string } | { ok: false; message: string };
const ensure = ensureElectronBinary as (options: { electronDir: string; log?: (line: string) => void }) => EnsureResult;
const projectRoot = path.resolve(import.meta.dirname, '../../..');
const folders: string[] = [];

function electronPackage(installScript: string | null): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'electron-pkg-'));
  folders.push(dir);
  if (installScript !== null) writeFileSync(path.join(dir, 'install.js'), installScript);
  return dir;
}

const downloadingInstall = `
const fs = require('fs');
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) process.exit(0);
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/electron', '');
fs.writeFileSync('path.txt', 'electron');
`;
const offlineInstall = `console.error('TypeError: fetch failed'); process.exit(1);`;

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  delete process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
});

describe('ensureElectronBinary', () => {
  it('should answer the installed binary without running install.js', () => {
    const dir = electronPackage(offlineInstall);
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', 'electron'), '');
    writeFileSync(path.join(dir, 'path.txt'), 'electron');
    expect(ensure({ electronDir: dir })).toEqual({ ok: true, binary: path.join(dir, 'dist', 'electron') });
  });

  it('should download the binary when it is missing, even when the shell says to skip downloads', () => {
    process.env.ELECTRON_SKIP_BINARY_DOWNLOAD = '1';
    const dir = electronPackage(downloadingInstall);
    const lines: string[] = [];
    expect(ensure({ electronDir: dir, log: (line) => lines.push(line) })).toEqual({
      ok: true,
      binary: path.join(dir, 'dist', 'electron'),
    });
    expect(lines.join('\n')).toContain('downloading');
  });

  it('should say what is missing and how to get it when the download fails', () => {
    const dir = electronPackage(offlineInstall);
    const result = ensure({ electronDir: dir, log: () => {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('Electron binary');
    expect(result.message).toContain('fetch failed');
    expect(result.message).toContain('npm start');
    expect(result.message).toContain('npm run kiosk');
  });

  it('should name the exact zip for this machine and the cache path install.js reads it from', () => {
    const dir = electronPackage(offlineInstall);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '45.5.0' }));
    const result = ensure({ electronDir: dir, log: () => {} });
    if (result.ok) throw new Error('expected a failure');
    const zip = `electron-v45.5.0-${process.platform}-${process.arch}.zip`;
    expect(result.message).toContain(`https://github.com/electron/electron/releases/download/v45.5.0/${zip}`);
    expect(result.message).toMatch(new RegExp(`[\\\\/][0-9a-f]{64}[\\\\/]${zip.replace(/\./g, '\\.')}`));
    expect(result.message).toContain('ELECTRON_MIRROR');
  });

  it('should ask for npm ci when electron is not installed at all', () => {
    const dir = electronPackage(null);
    const result = ensure({ electronDir: dir, log: () => {} });
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.message).toContain('npm ci');
  });
});

describe('package.json install scripts', () => {
  const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    allowScripts?: Record<string, boolean>;
    scripts: Record<string, string>;
  };

  it('should decide every dependency install script on purpose', () => {
    // electron (up to 41) downloaded its binary from a postinstall (fails offline; the kiosk
    // commands fetch it instead); 42 and later have none, and the entry keeps it off should it return;
    // electron-winstaller picks a 7-Zip for Squirrel.Windows, which we do not build (NSIS);
    // esbuild's postinstall only checks its platform binary, which npm installs from the registry;
    // unrs-resolver's postinstall re-fetches its platform binding, which npm already installs as an
    // optional dependency (pinned by overrides to a version whose bindings the registry has for
    // every platform, so package-lock.json lists them all and npm ci accepts it);
    // es5-ext (under @doyensec/electronegativity) only prints a message from its postinstall.
    expect(pkg.allowScripts).toEqual({
      electron: false,
      'electron-winstaller': false,
      'es5-ext': false,
      esbuild: true,
      'unrs-resolver': false,
    });
  });

  it('should fetch the Electron binary before the kiosk commands start Electron', () => {
    expect(pkg.scripts.kiosk).toMatch(/^node scripts\/electron-binary\.mjs && /);
    expect(pkg.scripts.dev).toMatch(/^node scripts\/electron-binary\.mjs && /);
  });
});
