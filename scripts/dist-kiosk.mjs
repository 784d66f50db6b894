// `npm run dist:kiosk`: the kiosk installers — Linux AppImage and .deb, Windows NSIS — built with
// electron-builder from electron-builder.yml (which flips the hardened fuses).
//
// electron-builder packages Electron's release zip of each target platform (not the binary in
// node_modules/electron, which is only this machine's). This script gets those zips first, so a
// build never stops half-way: a zip already in electron's cache folder (checked against the
// sha256 that electron's npm package lists), else a download through @electron/get (the library
// electron itself uses: ELECTRON_MIRROR and electron_config_cache apply). Where a zip can be
// neither found nor downloaded it prints what to fetch and where to put it, and builds nothing.
// The zips then go to electron-builder as `electronDist`, so packaging needs no network for them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_ELECTRON_DIR, electronCacheRoot, electronZipName, electronZipUrl } from './electron-binary.mjs';

export { electronCacheRoot, electronZipName } from './electron-binary.mjs';

/**
 * What each platform builds; `--linux` / `--win` on the command line pick some. Default: all of
 * them, except on Windows, where electron-builder cannot make the Linux packages.
 */
export const DIST_TARGETS = [
  { flag: '--linux', platform: 'linux', arch: 'x64', builderArgs: ['--linux', 'AppImage', 'deb'] },
  { flag: '--win', platform: 'win32', arch: 'x64', builderArgs: ['--win', 'nsis'] },
];

async function sha256(file) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * The real download: @electron/get as electron's package resolves it, checked against the
 * package's checksums (no SHASUMS256.txt fetch). It caches under cacheRoot in a hashed folder.
 */
async function downloadWithElectronGet({ electronDir, version, platform, arch, checksums, cacheRoot, env }) {
  const require = createRequire(path.join(electronDir, 'package.json'));
  const { downloadArtifact } = await import(pathToFileURL(require.resolve('@electron/get')).href);
  return downloadArtifact({
    version,
    platform,
    arch,
    artifactName: 'electron',
    cacheRoot,
    checksums,
    // @electron/get reads ELECTRON_MIRROR from process.env itself; this passes an injected env on.
    mirrorOptions: env.ELECTRON_MIRROR ? { mirror: env.ELECTRON_MIRROR } : undefined,
  });
}

/** The first line of an error, never its stack: the message is for clinic IT, not a debugger. */
function firstLine(error) {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.trim().split('\n')[0] || 'unknown error';
  // Node's fetch says only "fetch failed"; the reason (DNS, refused, TLS) is in its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message.split('\n')[0] : '';
  return cause ? `${line} (${cause})` : line;
}

/**
 * Makes sure every target's zip lies, verified, in the cache folder.
 * @returns {Promise<{ ok: true, dir: string } | { ok: false, message: string }>}
 */
export async function prepareElectronZips({ electronDir, targets, env, cacheRoot, download, log }) {
  const pkgFile = path.join(electronDir, 'package.json');
  if (!existsSync(pkgFile)) return { ok: false, message: `dist:kiosk: electron is not installed (no ${pkgFile}). Run \`npm ci\` first.` };
  const { version } = JSON.parse(readFileSync(pkgFile, 'utf8'));
  const checksums = JSON.parse(readFileSync(path.join(electronDir, 'checksums.json'), 'utf8'));
  const problems = [];
  for (const { platform, arch } of targets) {
    const zipName = electronZipName(version, platform, arch);
    const placed = path.join(cacheRoot, zipName);
    if (existsSync(placed)) {
      if ((await sha256(placed)) === checksums[zipName]) {
        log(`[dist:kiosk] ${zipName}: found in ${cacheRoot}`);
        continue;
      }
      problems.push({ zipName, reason: `${placed} is not Electron's release file (its sha256 differs); delete it` });
      continue;
    }
    log(`[dist:kiosk] ${zipName}: downloading (about 110 MB)…`);
    try {
      const downloaded = await download({ electronDir, version, platform, arch, checksums, cacheRoot, env });
      mkdirSync(cacheRoot, { recursive: true });
      // Through a temp name: an interrupted copy must not look like a placed zip next time.
      copyFileSync(downloaded, `${placed}.partial`);
      renameSync(`${placed}.partial`, placed);
    } catch (error) {
      problems.push({ zipName, reason: `the download failed: ${firstLine(error)}` });
    }
  }
  if (problems.length === 0) return { ok: true, dir: cacheRoot };
  return { ok: false, message: cannotDownloadMessage({ version, cacheRoot, problems, env }) };
}

function cannotDownloadMessage({ version, cacheRoot, problems, env }) {
  return [
    `dist:kiosk: Electron ${version}'s release ${problems.length === 1 ? 'zip is' : 'zips are'} missing; nothing was built.`,
    ...problems.map(({ zipName, reason }) => `  - ${zipName}: ${reason}`),
    'What to do (any one):',
    '  1. On a machine that can reach it, download',
    ...problems.map(({ zipName }) => `       ${electronZipUrl(version, zipName, env)}`),
    `     and copy ${problems.length === 1 ? 'it' : 'them'}, named exactly as above, into ${cacheRoot}`,
    '     (that folder is electron_config_cache when set; the zip is checked against the sha256 that',
    '     node_modules/electron/checksums.json lists). Then run `npm run dist:kiosk` again.',
    '  2. Or set ELECTRON_MIRROR to a mirror of Electron releases you can reach (it must hold',
    `     v${version}/<file name>), e.g. an internal Artifactory or https://npmmirror.com/mirrors/electron/.`,
    '  3. Or build only what you have: `npm run dist:kiosk -- --linux` or `-- --win`.',
    'Guide: docs/kiosk-it.md#building-the-installers',
  ].join('\n');
}

/** The targets the command line asks for (`--linux`, `--win`), or this host's default. */
export function selectTargets(argv, hostPlatform = process.platform) {
  const picked = DIST_TARGETS.filter((target) => argv.includes(target.flag));
  if (picked.length > 0) return picked;
  return hostPlatform === 'win32' ? DIST_TARGETS.filter((target) => target.platform === 'win32') : DIST_TARGETS;
}

/**
 * @param {{ argv?: string[], hostPlatform?: string, electronDir?: string, env?: NodeJS.ProcessEnv, cacheRoot?: string,
 *   download?: (request: object) => Promise<string>, run?: (command: string, args: string[]) => number,
 *   log?: (line: string) => void, error?: (line: string) => void }} options
 * @returns {Promise<number>} the exit code
 */
export async function distKiosk({
  argv = [],
  hostPlatform = process.platform,
  electronDir = DEFAULT_ELECTRON_DIR,
  env = process.env,
  cacheRoot = electronCacheRoot(env),
  download = downloadWithElectronGet,
  run = (command, args) => spawnSync('npx', [command, ...args], { stdio: 'inherit' }).status ?? 1,
  log = console.log,
  error = console.error,
} = {}) {
  const unknown = argv.filter((arg) => !DIST_TARGETS.some((target) => target.flag === arg));
  if (unknown.length > 0) {
    error(`dist:kiosk: unknown option ${unknown.join(' ')} (known: ${DIST_TARGETS.map((t) => t.flag).join(', ')}).`);
    return 2;
  }
  const targets = selectTargets(argv, hostPlatform);
  const zips = await prepareElectronZips({ electronDir, targets, env, cacheRoot, download, log });
  if (!zips.ok) {
    error(zips.message);
    return 1;
  }
  const steps = [
    ['electron-vite', ['build']],
    // electronDist: a folder holding electron-v<version>-<platform>-<arch>.zip for each platform.
    ['electron-builder', [...targets.flatMap((t) => t.builderArgs), '--publish', 'never', `--config.electronDist=${zips.dir}`]],
  ];
  for (const [command, args] of steps) {
    log(`[dist:kiosk] npx ${command} ${args.join(' ')}`);
    const status = run(command, args);
    if (status !== 0) {
      error(`dist:kiosk: ${command} failed (exit ${status}).`);
      return status;
    }
  }
  log('[dist:kiosk] installers are in release/');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await distKiosk({ argv: process.argv.slice(2) });
  } catch (error) {
    console.error(`dist:kiosk: ${firstLine(error)}`);
    process.exitCode = 1;
  }
}
