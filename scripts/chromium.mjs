// Finds Debian's Chromium for Playwright and Lighthouse; installs it when we are root and apt is there.
// Playwright's own browser download cannot work on our machines (no internet beyond the registries).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Flags every launch uses: the machines have no sandbox user namespace, no GPU and a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

export function findChromium() {
  return CANDIDATES.find((path) => path && existsSync(path)) ?? null;
}

/** Returns the Chromium path, installing Debian's package first when possible; null with advice printed otherwise. */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('[chromium] not found; installing Debian chromium with apt-get (takes a minute)…');
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch (error) {
      console.error(`[chromium] apt-get install chromium failed: ${error.message}`);
    }
    return findChromium();
  }
  console.error(
    '[chromium] No Chromium found. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary, then run the tests again.',
  );
  return null;
}
