// Starts the real portal server, built as `npm start` runs it, for the end-to-end journeys on a
// fresh embedded database, with a real SMTP server beside it: every mail the portal sends is
// written to test-results/e2e-mail as an .eml file, so a journey can read the confirmation
// (tests/e2e/helpers/mail.ts).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { startTileServer } from '../tests/e2e/helpers/map-tiles.mjs';
import { ensureServerBuilt } from './start.mjs';

const dataDir = process.env.E2E_DATA_DIR ?? join(process.cwd(), 'test-results', 'e2e-data');
const mailDir = process.env.E2E_MAIL_DIR ?? join(process.cwd(), 'test-results', 'e2e-mail');
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 4325);
rmSync(dataDir, { recursive: true, force: true });
rmSync(mailDir, { recursive: true, force: true });
mkdirSync(mailDir, { recursive: true });

/** Test-only: the same value is in tests/e2e/helpers/results.ts. */
const E2E_INTEGRATION_TOKEN = 'e2e-integration-token-not-a-secret-0123456789';

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      received += 1;
      const name = `${String(received).padStart(4, '0')}.eml`;
      writeFileSync(join(mailDir, name), Buffer.concat(chunks));
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
// The clinic map's tiles come from this machine, never the internet (tests/e2e/clinic-map.spec.ts).
const tiles = await startTileServer(Number(process.env.E2E_TILE_PORT ?? Number(process.env.E2E_PORT ?? 4310) + 6));

const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: process.env.E2E_PORT ?? '4310',
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${process.env.E2E_PORT ?? '4310'}`,
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(smtpPort),
  SMTP_FROM: 'Harbour & Range Radiology <bookings@harbourrange.example>',
  OUTBOX_POLL_MS: '200',
  // Browsers of tests/e2e/proof-of-work.spec.ts stand for patients behind one shared address by
  // sending X-Forwarded-For, as a load balancer on this machine would.
  TRUST_PROXY: 'loopback',
  // The RIS's bearer token for POST /api/integration/results (only its digest is configured), so a
  // journey can deliver a report as the provider's systems do (tests/e2e/helpers/results.ts).
  INTEGRATION_API_TOKEN_SHA256: createHash('sha256').update(E2E_INTEGRATION_TOKEN).digest('hex'),
  MAP_TILE_URL: tiles.url,
};
// The journeys always run on a fresh PGlite so they never see another run's rows.
delete env.DATABASE_URL;
// The journeys run the server `npm start` runs: the built one (dist/server), rebuilt when stale.
await ensureServerBuilt();
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], { env, stdio: 'inherit' });
const stop = (signal) => child.kill(signal);
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
child.on('exit', (code) => {
  tiles.close();
  smtp.close(() => process.exit(code ?? 0));
});
