// `npm run test:e2e`: builds the website and runs the Playwright journeys in Debian's Chromium.
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './chromium.mjs';

const chromium = ensureChromium();
if (!chromium) process.exit(1);
const run = (args) => spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } }).status ?? 1;
if (run(['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn']) !== 0) process.exit(1);
process.exit(run(['playwright', 'test', ...process.argv.slice(2)]));
