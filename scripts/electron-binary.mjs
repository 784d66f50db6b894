// The Electron binary for `npm run kiosk` and `npm run dev`, fetched when first needed.
//
// `npm ci` never downloads it: electron 42 and later have no postinstall at all (package.json's
// allowScripts still denies one, should it return). The kiosk commands call
// ensureElectronBinary() first: it runs electron's install.js (the download electron would
// otherwise attempt lazily the first time something requires it) when the binary is missing, and
// says exactly what to fetch, and where to put it, when the download fails.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
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

const RELEASES = 'https://github.com/electron/electron/releases/download/';

/** Electron's own name for a release zip, e.g. electron-v45.5.0-win32-x64.zip. */
export function electronZipName(version, platform, arch) {
  return `electron-v${version}-${platform}-${arch}.zip`;
}

/**
 * The folder @electron/get caches into: electron_config_cache when set (electron's install.js
 * passes it on), else its default per OS (env-paths "electron").
 */
export function electronCacheRoot(env = process.env, platform = process.platform, home = os.homedir()) {
  if (env.electron_config_cache) return env.electron_config_cache;
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'electron');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'electron', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'electron');
}

/** Where a zip is downloaded from: ELECTRON_MIRROR when set (as @electron/get reads it), else GitHub. */
export function electronZipUrl(version, zipName, env = process.env) {
  const base = env.ELECTRON_MIRROR || env.npm_config_electron_mirror || RELEASES;
  return `${base.endsWith('/') ? base : `${base}/`}v${version}/${zipName}`;
}

/**
 * Where @electron/get (5.x) looks for a zip before downloading it: a folder named by the sha256 of
 * the download URL's folder, so a zip copied there is used offline (still checksum-verified).
 */
export function electronGetCachePath(cacheRoot, url) {
  const parsed = new URL(url);
  parsed.hash = '';
  parsed.search = '';
  parsed.pathname = path.posix.dirname(parsed.pathname);
  return path.join(cacheRoot, createHash('sha256').update(parsed.toString()).digest('hex'), path.posix.basename(new URL(url).pathname));
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
  // The variable that skips the download must not leak in from a CI shell: here we want it
  // (electron 45's install.js ignores it; older ones exited without downloading).
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const run = spawnSync(process.execPath, [installScript], { cwd: electronDir, env, encoding: 'utf8' });
  const binary = installedElectronBinary(electronDir);
  if (run.status === 0 && binary) return { ok: true, binary };
  const reason = (run.stderr || run.stdout || run.error?.message || '').trim().split('\n')[0] || `exit ${run.status}`;
  return { ok: false, message: cannotDownloadMessage(electronDir, reason, env) };
}

/** What to fetch for this machine and where install.js will find it (none when unknown). */
function manualSteps(electronDir, env) {
  try {
    const { version } = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
    const zipName = electronZipName(version, process.platform, process.arch);
    const url = electronZipUrl(version, zipName, env);
    return [
      `- or download ${url}`,
      `  and copy it, under that exact name, to ${electronGetCachePath(electronCacheRoot(env), url)}`,
      '  (electron’s download cache; the folder name is fixed by the URL), then run the command again.',
    ];
  } catch {
    return [];
  }
}

function cannotDownloadMessage(electronDir, reason, env) {
  return [
    `The kiosk needs the Electron binary, which is not installed and could not be downloaded (${reason}).`,
    'The portal itself does not need it: `npm start` serves the website and the kiosk pages in a browser.',
    'To run the kiosk app:',
    '- run `npm run kiosk` again on a machine that can reach Electron’s releases,',
    '- or set ELECTRON_MIRROR to a mirror of Electron releases you can reach,',
    ...manualSteps(electronDir, env),
    'Guide: docs/kiosk-it.md#building-the-installers',
  ].join('\n');
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
