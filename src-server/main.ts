import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from './app';
import { loadConfigContext, parseConfig, redactDatabaseUrl, type Config } from './config';
import type { Database } from './db/connection';
import { deferredDatabase } from './db/deferred-database';
import { DatabaseUnreachableError } from './db/connection';
import { DataDirLockedError } from './db/data-dir-lock';
import { migrate, MigrationError } from './db/migrate';
import { DataDirCorruptError, openConfiguredDatabase, PGLITE_DIR_NAME } from './db/open-database';
import { DemoProviderError } from './db/seed/demo-provider';
import { seedDemoProvider } from './db/seed/seed';
import { servesDemoProvider } from './db/seed/demo-marker';
import { systemClock } from './platform/clock';
import { gracefulShutdown } from './platform/graceful-shutdown';
import { createMailer, type Mailer } from './platform/mailer';
import { createOutboxWorker } from './platform/outbox/outbox-worker';
import { createHttpSmsSender, noSmsSender } from './platform/sms/sms-provider';
import { createSmsWorker } from './platform/sms/sms-worker';
import { createRisWorker, RIS_MAX_ATTEMPTS } from './platform/ris/ris-worker';
import { createHl7Worker } from './platform/hl7/hl7-worker';
import type { DemoHl7Ris } from './dev-ris/hl7-receiver';
import { createRisWebhookSender, noRisSender, type RisSender, type RisWebhookConfig } from './platform/ris/webhook';
import { createHl7RisSender } from './platform/ris/hl7-ris-sender';
import { configuredStorage } from './platform/storage';
import { configuredScanner } from './platform/virus-scan';
import { startBanner } from './start-banner';
import { openStaffIdentity } from './staff-identity';
import { markCheckedIn } from './modules/check-in/public';

/**
 * The composition root: reads the configuration, opens the database (taking the DATA_DIR lock
 * for PGlite), migrates, seeds the demo provider on first start, listens, and shuts down
 * gracefully on SIGTERM/SIGINT. Run with `node --import tsx src-server/main.ts`.
 */

/** Start-up failures we expect print one line, not a stack trace. */
const KNOWN_START_ERRORS = [DatabaseUnreachableError, DataDirLockedError, DataDirCorruptError, MigrationError, DemoProviderError];

/** The staff identity (the demo identity provider, where it runs) could not open. */
class StaffIdentityError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'StaffIdentityError';
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function describeDatabase(config: Config): string {
  return config.databaseUrl === null
    ? `PGlite in ${join(config.dataDir, PGLITE_DIR_NAME)}`
    : `PostgreSQL at ${redactDatabaseUrl(config.databaseUrl)}`;
}

/**
 * The demo provider's results (src-server/dev-pacs): delivered through the app's own results
 * delivery, once per accession number, so a report naming the referrer's e-mail mails them too.
 */
async function deliverDemoResults(db: Database, app: FastifyInstance): Promise<void> {
  if (await servesDemoProvider(db)) {
    try {
      // The demo PACS's code loads only where the demo provider is served.
      const { seedDemoResults } = await import('./dev-pacs/demo-results');
      const demoResults = await seedDemoResults({
        db,
        clock: systemClock,
        delivery: app.resultDelivery,
      });
      for (const { accessionNumber } of demoResults.skipped)
        process.stderr.write(`[demo-pacs] result ${accessionNumber} skipped: its demo appointment is not in this database\n`);
    } catch (error) {
      process.stderr.write(
        `[demo-pacs] the demo results could not be delivered: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
}

/**
 * The outboxes' and the RIS hand-off's workers, declared as jobs (platform/jobs.ts): they start
 * when the server becomes ready and stop when it closes. Answers the demo RIS receiver, if one stands in.
 */
async function declareWorkers(
  app: FastifyInstance,
  db: Database,
  config: Config,
  mailer: Mailer,
): Promise<{ close(): Promise<void> } | null> {
  // Sends what features queued in the outbox; with no SMTP_HOST it logs that once and keeps it queued.
  const outboxWorker = createOutboxWorker({
    db,
    mailer,
    // Every mail gets its recipient's unsubscribe link and headers; an unsubscribed address's notifications are skipped.
    policy: app.outgoingMailPolicy,
    clock: systemClock,
    logger: app.log,
    observe: app.metrics.outboxDelivery('mail'),
    pollMs: config.outboxPollMs,
    maxAttempts: config.outboxMaxAttempts,
    keepSentMs: config.outboxKeepSentDays * 24 * 60 * 60_000,
  });

  // The SMS outbox (one-time passwords), with the mail outbox's polling, retries and retention.
  const smsWorker = createSmsWorker({
    db,
    sender: config.sms === null ? noSmsSender : createHttpSmsSender(config.sms),
    clock: systemClock,
    logger: app.log,
    observe: app.metrics.outboxDelivery('sms'),
    pollMs: config.outboxPollMs,
    maxAttempts: config.outboxMaxAttempts,
    keepSentMs: config.outboxKeepSentDays * 24 * 60 * 60_000,
  });

  // Check-in hand-offs to the clinic's RIS, by the wire RIS_CHECK_IN chose; without RIS_WEBHOOK_URL
  // the demo receiver stands in for the webhook (never in production). Its code loads only then.
  const demoRis =
    config.risDemoReceiver && config.risCheckIn === 'webhook' ? await (await import('./dev-ris/receiver')).startDemoRisReceiver() : null;
  const risConfig = config.ris ?? demoRis?.config ?? null;
  const risWorker = createRisWorker({
    db,
    markCheckedIn,
    sender: checkInSender(db, config, risConfig),
    clock: systemClock,
    logger: app.log,
    observe: app.metrics.outboxDelivery('ris'),
    maxAttempts: RIS_MAX_ATTEMPTS,
  });

  // They start when the server becomes ready and stop when it closes (platform/jobs.ts).
  app.jobs.worker('outbox.mail', outboxWorker);
  // Without SMS_PROVIDER_URL no SMS is ever queued (SMS codes are not offered).
  if (config.sms !== null) app.jobs.worker('outbox.sms', smsWorker);
  app.jobs.worker('ris.hand-off', risWorker);
  // HL7 v2 to the RIS (HL7_RIS_ADDRESS): without it no message is ever queued.
  if (config.hl7 !== null) {
    const destination = { host: config.hl7.host, port: config.hl7.port };
    const hl7Worker = createHl7Worker({ db, destination, clock: systemClock, logger: app.log, observe: app.metrics.outboxDelivery('hl7') });
    app.jobs.worker('hl7.outbound', hl7Worker);
  }
  return demoRis;
}

/** HL7 (config.hl7 is set: the rules or the demo HL7 RIS saw to it) or the webhook; nothing configured: queued. */
function checkInSender(db: Database, config: Config, webhook: RisWebhookConfig | null): RisSender {
  if (config.risCheckIn === 'hl7') {
    const hl7 = config.hl7;
    return hl7 === null ? noRisSender : createHl7RisSender({ db, config: hl7, destination: { host: hl7.host, port: hl7.port } });
  }
  return webhook === null ? noRisSender : createRisWebhookSender(webhook);
}

/**
 * Without HL7_RIS_ADDRESS outside production, the demo RIS's HL7 listener (src-server/dev-ris/)
 * takes the HL7 messages, so a newcomer sees them sent on /dev/outbox. Its code loads only then.
 * Without HL7_LISTEN_ADDRESS there, the portal listens for the RIS on 127.0.0.1 (a free port), so
 * the demo RIS can send a report back (docs/integration/hl7.md#the-demo-ris).
 */
async function withDemoHl7Ris(config: Config): Promise<{ config: Config; demoHl7Ris: DemoHl7Ris | null }> {
  if (!config.risDemoReceiver) return { config, demoHl7Ris: null };
  // The demo RIS's reports come back to a listener on this machine (any free port), readable at once.
  const hl7Inbound = config.hl7Inbound ?? { host: '127.0.0.1', port: 0, allowedAddresses: ['127.0.0.1', '::1'], releaseDelayDays: 0 };
  if (config.hl7 !== null) return { config: { ...config, hl7Inbound }, demoHl7Ris: null };
  const { startDemoHl7Ris, DEMO_HL7_RIS_APPLICATION } = await import('./dev-ris/hl7-receiver');
  const demoHl7Ris = await startDemoHl7Ris();
  const hl7 = {
    host: demoHl7Ris.host,
    port: demoHl7Ris.port,
    receivingApplication: DEMO_HL7_RIS_APPLICATION,
    receivingFacility: '',
    sendingFacility: '',
  };
  return { config: { ...config, hl7, hl7Inbound }, demoHl7Ris };
}

async function main(): Promise<void> {
  const parsed = parseConfig(process.env, loadConfigContext(process.cwd()));
  if (!parsed.ok) fail(`Configuration problems:\n${parsed.problems.join('\n')}`);
  const { config, demoHl7Ris } = await withDemoHl7Ris(parsed.config);

  // The staff identity needs no database: it opens while the database does (the demo identity
  // provider reads its kept key from DATA_DIR, or makes one on libuv's threads).
  const staffIdentityOpening = openStaffIdentity(config, {
    onError: (message) => process.stderr.write(`[dev-identity] ${message}\n`),
  }).then(
    (identity) => ({ identity }),
    (error: unknown) => ({ error }),
  );

  // The database opens, migrates and seeds while the server's routes are built: the routes get a
  // Database whose statements wait for it (db/deferred-database.ts). PGlite opens in a thread of
  // its own (db/pglite-thread), so both run at once.
  const preparing = openConfiguredDatabase(config, (error) =>
    process.stderr.write(`[database] a connection to the database was lost: ${error.message}\n`),
  ).then(async (opened) => {
    try {
      await migrate(opened);
      return { db: opened, seeded: await seedDemoProvider(opened, { clock: systemClock }) };
    } catch (error) {
      await opened.close().catch(() => undefined);
      throw error;
    }
  });
  const db = deferredDatabase(
    config.databaseUrl === null ? 'pglite' : 'postgres',
    preparing.then(({ db: opened }) => opened),
  );
  const storage = configuredStorage(config);
  const mailer = createMailer(config.smtp);
  const building = staffIdentityOpening.then(async (opened) => {
    if ('error' in opened) throw new StaffIdentityError(opened.error);
    const app = await buildServer({
      db,
      clock: systemClock,
      config,
      mailer,
      storage,
      scanner: configuredScanner(config),
      logger: { level: config.logLevel },
      ...(opened.identity.identity === undefined ? {} : { identity: opened.identity.identity }),
      ...(opened.identity.mounted === null ? {} : { identityMount: opened.identity.mounted }),
    });
    return { app, staffIdentity: opened.identity, demoRis: await declareWorkers(app, db, config, mailer) };
  });
  const [prepared, built] = await Promise.allSettled([preparing, building]);
  if (prepared.status === 'rejected') {
    const error: unknown = prepared.reason;
    if (KNOWN_START_ERRORS.some((kind) => error instanceof kind) && error instanceof Error) fail(error.message);
    throw error;
  }
  const { seeded } = prepared.value;
  if (built.status === 'rejected') {
    await db.close().catch(() => undefined);
    const error: unknown = built.reason;
    if (error instanceof StaffIdentityError) {
      fail(`The local identity provider could not start (DEV_IDENTITY_PORT=off skips it): ${error.message}`);
    }
    throw error;
  }
  const { app, staffIdentity, demoRis } = built.value;

  // Ready (routes' schemas compiled, ready hooks run, jobs started) while the demo results go in:
  // not before the database is open, so fastify's plugin timeout never counts a first start's
  // migrations.
  await Promise.all([deliverDemoResults(db, app), app.ready()]);

  let shuttingDown = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, '[shutdown] stopping: no new connections, finishing requests in flight');
    try {
      const { timedOut } = await gracefulShutdown(app, {
        timeoutMs: config.shutdownTimeoutMs,
        closeResources: async () => {
          await demoRis?.close();
          await demoHl7Ris?.close();
          await mailer.close();
          await staffIdentity.close();
          // Closing the database also releases the DATA_DIR lock (PGlite).
          await db.close();
        },
      });
      app.log.info({ timedOut }, '[shutdown] closed');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, '[shutdown] failed to close cleanly');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await db.close().catch(() => undefined);
    fail(`Cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`);
  }

  const indexHtml = join(config.webRoot, 'index.html');
  const lines = await startBanner(db, config, {
    database: describeDatabase(config),
    seededNow: seeded.seeded,
    missingIndexHtml: existsSync(indexHtml) ? null : indexHtml,
    demoHl7Ris: demoHl7Ris !== null,
    hl7Listener: app.hl7Listener.address(),
  });
  process.stdout.write(`${[...lines, ...staffIdentity.banner].join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The portal server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
