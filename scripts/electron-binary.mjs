// The Electron binary for `npm run kiosk` and `npm run dev`, fetched when first needed.
//
// package.json denies electron's own postinstall (allowScripts), so `npm ci` never downloads
// anything and works on machines that cannot reach Electron's release server. The kiosk commands
// call ensureElectronBinary() first: it runs electron's install.js (the same download its
// postinstall would have done) when the binary is missing, and explains what is missing when the
// download fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_ELECTRON_DIR = path.join(projectRoot, 'node_modules', 'electron');

/** The executable electron's package points at (path.txt under dist/), or null when it is not there. */
export function installedElectronBinary(electronDir = DEFAULT_ELECTRON_DIR) {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/**
 * Returns `{ ok: true, binary }`, downloading the binary first when it is missing, or
 * `{ ok: false, message }` with what is missing and how to get it.
 */
export function ensureElectronBinary({ electronDir = DEFAULT_ELECTRON_DIR, log = console.log } = {}) {
  const present = installedElectronBinary(electronDir);
  if (present) return { ok: true, binary: present };
  const installScript = path.join(electronDir, 'install.js');
  if (!existsSync(installScript)) {
    return { ok: false, message: `Electron is not installed (no ${installScript}). Run \`npm ci\` first.` };
  }
  log('[kiosk] The Electron binary is not installed yet; downloading it once (about 100 MB)…');
  // The variable that skips the download must not leak in from a CI shell: here we want it.
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const run = spawnSync(process.execPath, [installScript], { cwd: electronDir, env, encoding: 'utf8' });
  const binary = installedElectronBinary(electronDir);
  if (run.status === 0 && binary) return { ok: true, binary };
  const reason = (run.stderr || run.stdout || run.error?.message || '').trim().split('\n')[0] || `exit ${run.status}`;
  return {
    ok: false,
    message: [
      `The kiosk needs the Electron binary, which is not installed and could not be downloaded (${reason}).`,
      'The portal itself does not need it: `npm start` serves the website and the kiosk pages in a browser.',
      'To run the kiosk app, on a machine that can reach Electron’s releases run `npm run kiosk` again,',
      'or point ELECTRON_MIRROR at a mirror you can reach, or copy a downloaded Electron zip into',
      'electron’s cache (see https://www.electronjs.org/docs/latest/tutorial/installation).',
    ].join('\n'),
  };
}

// `node scripts/electron-binary.mjs`: make sure the binary is there, or explain and exit 1.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = ensureElectronBinary();
  if (!result.ok) {
    console.error(result.message);
    process.exit(1);
  }
  console.log(`[kiosk] Electron binary: ${result.binary}`);
}
