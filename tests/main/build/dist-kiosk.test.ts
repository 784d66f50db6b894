import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script behind `npm run dist:kiosk`; it has no type declarations.
import { DIST_STEPS, distKiosk } from '../../../scripts/dist-kiosk.mjs';

type Run = (command: string, args: string[]) => number;
const dist = distKiosk as (options: {
  electronDir: string;
  run: Run;
  log: (line: string) => void;
  error: (line: string) => void;
}) => number;
const folders: string[] = [];

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function electronPackage(withBinary: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'electron-pkg-'));
  folders.push(dir);
  if (withBinary) {
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', 'electron'), '');
    writeFileSync(path.join(dir, 'path.txt'), 'electron');
  }
  return dir;
}

function setUp(withBinary: boolean, statuses: number[] = []) {
  const calls: string[] = [];
  const out: string[] = [];
  const errors: string[] = [];
  const status = dist({
    electronDir: electronPackage(withBinary),
    run: (command, args) => {
      calls.push([command, ...args].join(' '));
      return statuses.shift() ?? 0;
    },
    log: (line) => out.push(line),
    error: (line) => errors.push(line),
  });
  return { status, calls, out, errors };
}

describe('npm run dist:kiosk', () => {
  it('should stop with one clear line and build nothing when the Electron binary is absent', () => {
    const { status, calls, out, errors } = setUp(false);
    expect(status).toBe(1);
    expect(calls).toEqual([]);
    expect(out).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^dist:kiosk: the Electron binary is not installed \(.+\); .+ — nothing was built\.$/);
    expect(errors[0]).not.toContain('\n');
  });

  it('should bundle, then build the AppImage, deb and NSIS installers', () => {
    const { status, calls } = setUp(true);
    expect(status).toBe(0);
    expect(calls).toEqual(['electron-vite build', 'electron-builder --linux AppImage deb --win nsis --publish never']);
    expect(DIST_STEPS).toHaveLength(2);
  });

  it('should stop at the first failing step with its exit code', () => {
    const { status, calls, errors } = setUp(true, [2]);
    expect(status).toBe(2);
    expect(calls).toEqual(['electron-vite build']);
    expect(errors).toEqual(['dist:kiosk: electron-vite failed (exit 2).']);
  });
});
