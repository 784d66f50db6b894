// Starts the real portal server for the end-to-end journeys on a fresh embedded database.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const dataDir = process.env.E2E_DATA_DIR ?? join(process.cwd(), 'test-results', 'e2e-data');
rmSync(dataDir, { recursive: true, force: true });

const env = { ...process.env, DATA_DIR: dataDir, PORT: process.env.E2E_PORT ?? '4310', HOST: '127.0.0.1' };
// The journeys always run on a fresh PGlite so they never see another run's rows.
delete env.DATABASE_URL;
const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/main.ts'], { env, stdio: 'inherit' });
const stop = (signal) => child.kill(signal);
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
child.on('exit', (code) => process.exit(code ?? 0));
