// `npm run dist:kiosk`: the kiosk installers — Linux AppImage and .deb, Windows NSIS — built with
// electron-builder from electron-builder.yml (which flips the hardened fuses). electron-builder
// needs the Electron binary; where it is absent (this project's CI, machines without access to
// Electron's releases) the script stops before building anything, with one line saying so.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ELECTRON_DIR, installedElectronBinary } from './electron-binary.mjs';

/** The build steps, in order: bundle main/preload, then package for both platforms. */
export const DIST_STEPS = [
  ['electron-vite', ['build']],
  ['electron-builder', ['--linux', 'AppImage', 'deb', '--win', 'nsis', '--publish', 'never']],
];

/**
 * @param {{ electronDir?: string, run?: (command: string, args: string[]) => number, log?: (line: string) => void, error?: (line: string) => void }} options
 * @returns {number} the exit code
 */
export function distKiosk({
  electronDir = DEFAULT_ELECTRON_DIR,
  run = (command, args) => spawnSync('npx', [command, ...args], { stdio: 'inherit' }).status ?? 1,
  log = console.log,
  error = console.error,
} = {}) {
  if (!installedElectronBinary(electronDir)) {
    error(
      `dist:kiosk: the Electron binary is not installed (${path.join(electronDir, 'dist')}); fetch it with \`node scripts/electron-binary.mjs\` where Electron's releases (or ELECTRON_MIRROR) can be reached — nothing was built.`,
    );
    return 1;
  }
  for (const [command, args] of DIST_STEPS) {
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
  process.exit(distKiosk());
}
