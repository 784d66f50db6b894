import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script run by `npm test`; it has no type declarations.
import { formatAudit, parseCsv, runAudit } from '../../../scripts/electronegativity.mjs';

interface Finding {
  issue: string;
  severity: string;
  filename: string;
}
interface AuditResult {
  ok: boolean;
  files: string[];
  findings: Finding[];
  failedFiles: string[];
  globalHigh: Finding[];
  error?: string;
}
const audit = runAudit as (options?: { root?: string; inputs?: string[] }) => AuditResult;
const format = formatAudit as (result: AuditResult) => string[];
const csv = parseCsv as (text: string) => Record<string, string>[];

const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

/** A tiny app written in today's TypeScript, with the window hardening switched off. */
function weakenedApp(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'eneg-fixture-'));
  fixtures.push(root);
  mkdirSync(path.join(root, 'src-main'));
  mkdirSync(path.join(root, 'src-preload'));
  writeFileSync(
    path.join(root, 'src-main', 'main.ts'),
    `import { app, BrowserWindow } from 'electron';
type Mode = 'production' | 'development';
const mode = 'production' satisfies Mode;
export function open(url: string): BrowserWindow {
  const window = new BrowserWindow({ webPreferences: { contextIsolation: false, nodeIntegration: true, sandbox: false } });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  void window.loadURL(url);
  return window;
}
app.whenReady().then(() => open(mode === 'production' ? 'https://portal.example.com' : 'http://localhost:3000'));
`,
  );
  writeFileSync(path.join(root, 'src-preload', 'index.ts'), `export const nothing: readonly string[] = [];\n`);
  return root;
}

describe('scripts/electronegativity.mjs', () => {
  it('fails on a HIGH finding in TypeScript source (contextIsolation switched off)', () => {
    const result = audit({ root: weakenedApp() });
    expect(result.ok).toBe(false);
    expect(result.failedFiles).toEqual(['src-main/main.ts']);
    expect(result.findings).toContainEqual(expect.objectContaining({ issue: 'CONTEXT_ISOLATION_JS_CHECK', severity: 'HIGH' }));
    expect(format(result).at(-1)).toBe(`electronegativity: 1 passed, ${1 + result.globalHigh.length} failed`);
  }, 120_000);

  it('reads quoted CSV fields with commas and doubled quotes', () => {
    expect(csv('issue, severity, sample\nX,"HIGH","a, ""b"""\r\n')).toEqual([{ issue: 'X', severity: 'HIGH', sample: 'a, "b"' }]);
  });

  it('counts a run that wrote no report as a failure', () => {
    expect(
      format({ ok: false, files: ['a.ts'], findings: [], failedFiles: [], globalHigh: [], error: 'no report written (exit 1)' }),
    ).toEqual(['electronegativity did not run: no report written (exit 1)', 'electronegativity: 0 passed, 1 failed']);
  });
});
