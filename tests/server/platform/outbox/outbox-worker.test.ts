import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../../../src-server/db/connection';
import { migrate } from '../../../../src-server/db/migrate';
import { createTestClock, type TestClock } from '../../../../src-server/platform/clock';
import { createSmtpMailer, noTransportMailer, type Mailer } from '../../../../src-server/platform/mailer';
import { createOutboxRepository, type NewOutboxMail } from '../../../../src-server/platform/outbox/outbox-repository';
import {
  createOutboxWorker,
  defaultBackoffMs,
  describeSendError,
  isPermanentSendError,
  isTransportError,
  type OutboxWorkerOptions,
} from '../../../../src-server/platform/outbox/outbox-worker';
import { backends, createPostgresDatabase, dropPostgresDatabase, postgresUrlFor } from '../../helpers/database';
import { useTestDatabase } from '../../helpers/test-app';
import {
  collectingLogger,
  freePort,
  selfSignedCertificate,
  smtpConfigFor,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../../helpers/test-smtp-server';

const START = '2026-03-10T01:00:00.000Z';

function mail(index: number, recipient = `patient${index}@example.com`): NewOutboxMail {
  return {
    kind: 'booking_confirmation',
    recipient,
    subject: `Mail number ${index}`,
    text: `Body ${index}`,
    html: `<p>Body ${index}</p>`,
    attachments: [
      { filename: 'appointment.ics', contentType: 'text/calendar; charset=utf-8', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' },
    ],
  };
}

describe('outbox worker helpers', () => {
  it('should back off 30 s, 1 min, 2 min … and never more than an hour', () => {
    expect([1, 2, 3, 4].map(defaultBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(defaultBackoffMs(8)).toBe(3_600_000);
    expect(defaultBackoffMs(50)).toBe(3_600_000);
  });

  it('should describe a send error by its codes only, never by its text (which can hold an address)', () => {
    const rejected = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 <jane@example.com>: unknown"), {
      code: 'EENVELOPE',
      responseCode: 550,
      command: 'RCPT TO',
    });
    expect(describeSendError(rejected)).toBe('EENVELOPE 550 RCPT TO');
    expect(describeSendError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET', command: 'CONN' }))).toBe(
      'ESOCKET CONN (ECONNREFUSED)',
    );
    expect(describeSendError(new Error('jane@example.com said no'))).toBe('send_failed');
    expect(describeSendError({ code: 'weird code <jane@example.com>' })).toBe('send_failed');
    expect(describeSendError('a string')).toBe('send_failed');
    expect(isPermanentSendError(rejected)).toBe(true);
    expect(isPermanentSendError({ code: 'EENVELOPE', responseCode: 452 })).toBe(false);
    expect(isPermanentSendError({ code: 'EAUTH', responseCode: 535 })).toBe(false);
    expect(isTransportError({ code: 'ESOCKET' })).toBe(true);
    expect(isTransportError({ code: 'EAUTH', responseCode: 535 })).toBe(true);
    expect(isTransportError(rejected)).toBe(false);
    expect(isTransportError(new Error('no code'))).toBe(false);
  });
});

describe.each(backends())('outbox worker on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });
  let clock: TestClock;

  const mailers: Mailer[] = [];
  const servers: TestSmtpServer[] = [];

  function mailerFor(port: number, auth: Parameters<typeof smtpConfigFor>[1] = null, ca?: string): Mailer {
    const mailer = createSmtpMailer(smtpConfigFor(port, auth), ca === undefined ? {} : { ca });
    mailers.push(mailer);
    return mailer;
  }
  async function smtpServer(port = 0, options: Parameters<typeof startTestSmtpServer>[1] = {}): Promise<TestSmtpServer> {
    const server = await startTestSmtpServer(port, options);
    servers.push(server);
    return server;
  }
  /** Queues mail number `index` now: its id. */
  const queue = (index: number, recipient?: string): Promise<number> =>
    createOutboxRepository(test.db).enqueue(mail(index, recipient), clock.now());
  function worker(options: Partial<OutboxWorkerOptions> & Pick<OutboxWorkerOptions, 'mailer'>) {
    const logger = collectingLogger();
    return { logger, worker: createOutboxWorker({ db: test.db, clock, logger, pollMs: 50, maxAttempts: 5, ...options }) };
  }

  beforeEach(async () => {
    clock = createTestClock(START);
    await test.db.exec('delete from outbox_mail');
  });
  afterEach(async () => {
    for (const mailer of mailers.splice(0)) await mailer.close();
    for (const server of servers.splice(0)) await server.stop();
  });

  it('should keep mail queued while the SMTP server is down and send it once the server is back', async () => {
    const port = await freePort();
    await queue(1);
    const { worker: outbox, logger } = worker({ mailer: mailerFor(port) });

    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const [waiting] = await createOutboxRepository(test.db).listRecent(1);
    expect(waiting).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'ESOCKET CONN (ECONNREFUSED)',
      nextAttemptAt: '2026-03-10T01:00:30.000Z',
      sentAt: null,
    });
    expect(logger.lines.map((line) => line.message)).toEqual(['[outbox] sending failed; will retry']);

    // Not due yet: nothing is attempted before the backoff has passed.
    clock.advance(29_000);
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });

    const server = await smtpServer(port);
    clock.advance(1_000);
    expect(await outbox.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [arrived] = await server.waitForMails(1);
    expect(arrived?.parsed.subject).toBe('Mail number 1');
    expect(arrived?.envelopeTo).toEqual(['patient1@example.com']);
    expect(arrived?.parsed.attachments.map((attachment) => attachment.filename)).toEqual(['appointment.ics']);
    expect(await createOutboxRepository(test.db).listRecent(1)).toMatchObject([
      { status: 'sent', attempts: 2, lastError: null, sentAt: '2026-03-10T01:00:30.000Z' },
    ]);
  });

  it('should try one mail while the server is down and let the others wait untried, as long', async () => {
    const port = await freePort();
    const ids = [await queue(11), await queue(12), await queue(13)];
    const { worker: outbox } = worker({ mailer: mailerFor(port) });
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const rows = await Promise.all(ids.map((id) => createOutboxRepository(test.db).find(id)));
    expect(rows.map((row) => [row?.status, row?.attempts, row?.nextAttemptAt, row?.lastError])).toEqual([
      ['queued', 1, '2026-03-10T01:00:30.000Z', 'ESOCKET CONN (ECONNREFUSED)'],
      ['queued', 0, '2026-03-10T01:00:30.000Z', null],
      ['queued', 0, '2026-03-10T01:00:30.000Z', null],
    ]);
    const server = await smtpServer(port);
    clock.advance(30_000);
    expect(await outbox.runOnce()).toEqual({ sent: 3, retried: 0, failed: 0 });
    expect(server.received.map((received) => received.parsed.subject)).toEqual(['Mail number 11', 'Mail number 12', 'Mail number 13']);
  });

  it('should not send a claimed mail once most of its lease is gone, but give it back untried', async () => {
    const server = await smtpServer();
    const ids = [await queue(21), await queue(22), await queue(23)];
    // A real SMTP send that takes 30 s of the test clock: after two, 40 s of a 100 s lease are left.
    const smtp = mailerFor(server.port);
    const slow: Mailer = {
      configured: true,
      send: async (message) => {
        const sent = await smtp.send(message);
        clock.advance(30_000);
        return sent;
      },
      close: () => smtp.close(),
    };
    const { worker: outbox } = worker({ mailer: slow, leaseMs: 100_000 });
    expect(await outbox.runOnce()).toEqual({ sent: 2, retried: 0, failed: 0 });
    expect(await createOutboxRepository(test.db).find(ids[2] ?? 0)).toMatchObject({
      status: 'queued',
      attempts: 0,
      nextAttemptAt: '2026-03-10T01:01:00.000Z',
    });
    expect(await outbox.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(server.received.map((received) => received.parsed.subject)).toEqual(['Mail number 21', 'Mail number 22', 'Mail number 23']);
  });

  it('should retry with a growing delay and give up after maxAttempts, keeping the mail as failed', async () => {
    const port = await freePort();
    const id = await queue(2);
    const { worker: outbox, logger } = worker({ mailer: mailerFor(port), maxAttempts: 3 });

    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect((await createOutboxRepository(test.db).find(id))?.nextAttemptAt).toBe('2026-03-10T01:00:30.000Z');
    clock.set('2026-03-10T01:00:30.000Z');
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect((await createOutboxRepository(test.db).find(id))?.nextAttemptAt).toBe('2026-03-10T01:01:30.000Z');
    clock.set('2026-03-10T01:01:30.000Z');
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 0, failed: 1 });

    const failed = await createOutboxRepository(test.db).find(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, lastError: 'ESOCKET CONN (ECONNREFUSED)', sentAt: null });
    // Kept, and never tried again, even when the server comes back.
    await smtpServer(port);
    clock.advance(24 * 3_600_000);
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect((await createOutboxRepository(test.db).find(id))?.status).toBe('failed');
    expect(logger.lines.map((line) => `${line.level} ${line.message}`)).toEqual([
      'warn [outbox] sending failed; will retry',
      'warn [outbox] sending failed; will retry',
      'error [outbox] gave up on a mail',
    ]);
  });

  it('should give up at once on a permanent refusal, keep personal data out of the error and the log, and send the others', async () => {
    const sentinel = 'sentinel.unknown.patient@example.com';
    const server = await smtpServer(0, { rejectRecipient: (address) => address === sentinel });
    const rejectedId = await queue(3, sentinel);
    await queue(4);
    const { worker: outbox, logger } = worker({ mailer: mailerFor(server.port) });

    expect(await outbox.runOnce()).toEqual({ sent: 1, retried: 0, failed: 1 });
    expect(await createOutboxRepository(test.db).find(rejectedId)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'EENVELOPE 550 RCPT TO',
    });
    expect(server.received.map((received) => received.parsed.subject)).toEqual(['Mail number 4']);
    const logged = JSON.stringify(logger.lines);
    expect(logged).not.toContain('sentinel');
    expect(logged).not.toContain('patient4');
    expect(logged).not.toContain('Mail number');
  });

  it('should log once, and keep every mail queued, when no SMTP transport is configured', async () => {
    await queue(5);
    await queue(6);
    const { worker: outbox, logger } = worker({ mailer: noTransportMailer });
    for (let pass = 0; pass < 3; pass += 1) {
      expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      clock.advance(60_000);
    }
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: '[outbox] SMTP_HOST is not set: e-mail stays queued in the outbox and is sent once SMTP is configured',
        data: { waiting: 2 },
      },
    ]);
    expect((await createOutboxRepository(test.db).listRecent(10)).map((row) => [row.status, row.attempts])).toEqual([
      ['queued', 0],
      ['queued', 0],
    ]);

    // The same rows go out once a transport exists (a restart with SMTP_HOST set).
    const server = await smtpServer();
    const { worker: configured } = worker({ mailer: mailerFor(server.port) });
    expect(await configured.runOnce()).toEqual({ sent: 2, retried: 0, failed: 0 });
  });

  it('should upgrade to TLS with STARTTLS and log in with the configured user and password', async () => {
    const tls = selfSignedCertificate();
    const server = await smtpServer(0, { credentials: { user: 'portal', password: 's3cret' }, tls });
    const id = await queue(7);
    const { worker: wrong } = worker({ mailer: mailerFor(server.port, { user: 'portal', password: 'wrong' }, tls.cert) });
    expect(await wrong.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect((await createOutboxRepository(test.db).find(id))?.lastError).toBe('EAUTH 535 AUTH PLAIN');

    clock.advance(30_000);
    const { worker: right } = worker({ mailer: mailerFor(server.port, { user: 'portal', password: 's3cret' }, tls.cert) });
    expect(await right.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(server.received.map((received) => [received.user, received.secure])).toEqual([['portal', true]]);
  });

  it('should never send the password in clear: no STARTTLS offered, no login, the mail waits', async () => {
    const server = await smtpServer(0, { credentials: { user: 'portal', password: 's3cret' } });
    const id = await queue(14);
    const { worker: outbox } = worker({ mailer: mailerFor(server.port, { user: 'portal', password: 's3cret' }) });
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(await createOutboxRepository(test.db).find(id)).toMatchObject({ status: 'queued', lastError: 'ETLS 500 STARTTLS' });
    expect(server.authAttempts).toBe(0);
    expect(server.received).toHaveLength(0);
  });

  it('should use STARTTLS when the server offers it, also without a login', async () => {
    const tls = selfSignedCertificate();
    const server = await smtpServer(0, { tls });
    await queue(15);
    const { worker: outbox } = worker({ mailer: mailerFor(server.port, null, tls.cert) });
    expect(await outbox.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(server.received.map((received) => received.secure)).toEqual([true]);
    // A certificate nobody vouches for is refused rather than ignored.
    await queue(16);
    const { worker: untrusting } = worker({ mailer: mailerFor(server.port) });
    expect(await untrusting.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
  });

  it('should delete sent mail after the retention time and keep failed and queued mail', async () => {
    const server = await smtpServer();
    const day = 24 * 3_600_000;
    const old = await queue(31);
    const { worker: first } = worker({ mailer: mailerFor(server.port) });
    expect((await first.runOnce()).sent).toBe(1);
    clock.advance(2 * day);
    const recent = await queue(32);
    expect((await first.runOnce()).sent).toBe(1);
    const failed = await queue(33);
    const { worker: down } = worker({ mailer: mailerFor(await freePort()), maxAttempts: 1 });
    expect((await down.runOnce()).failed).toBe(1);
    const queued = await queue(34);

    // 30 days and a minute after the first was sent; the second was sent 28 days ago.
    clock.advance(28 * day + 60_000);
    const { worker: keeper, logger } = worker({ mailer: noTransportMailer, keepSentMs: 30 * day });
    await keeper.runOnce();
    expect(await createOutboxRepository(test.db).find(old)).toBeNull();
    expect(
      (await Promise.all([recent, failed, queued].map((id) => createOutboxRepository(test.db).find(id)))).map((row) => row?.status),
    ).toEqual(['sent', 'failed', 'queued']);
    expect(logger.lines.find((line) => line.message === '[outbox] deleted old sent mail')?.data).toEqual({ deleted: 1 });
  });

  it('should send again a mail whose worker died mid-send, but only after its claim expired', async () => {
    const server = await smtpServer();
    const id = await queue(8);
    // A worker claims the mail and dies before recording anything.
    const claimed = await createOutboxRepository(test.db).claimDue(clock.now(), new Date(clock.now().getTime() + 300_000), 10);
    expect(claimed.map((row) => [row.id, row.status, row.attempts])).toEqual([[id, 'sending', 1]]);

    const { worker: outbox } = worker({ mailer: mailerFor(server.port) });
    clock.advance(299_000);
    expect(await outbox.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock.advance(1_000);
    expect(await outbox.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await createOutboxRepository(test.db).find(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(server.received).toHaveLength(1);
  });

  it('should drain more mails than one batch in one pass, oldest first', async () => {
    const server = await smtpServer();
    for (let index = 0; index < 7; index += 1) await queue(100 + index);
    const { worker: outbox } = worker({ mailer: mailerFor(server.port), batchSize: 3 });
    expect(await outbox.runOnce()).toEqual({ sent: 7, retried: 0, failed: 0 });
    expect(server.received.map((received) => received.parsed.subject)).toEqual(
      Array.from({ length: 7 }, (_, index) => `Mail number ${100 + index}`),
    );
  });

  it('should poll by itself once started, and stop cleanly', async () => {
    const server = await smtpServer();
    const { worker: outbox } = worker({ mailer: mailerFor(server.port), pollMs: 20 });
    outbox.start();
    await queue(9);
    const [arrived] = await server.waitForMails(1, 5000);
    expect(arrived?.parsed.subject).toBe('Mail number 9');
    await outbox.stop();
    await queue(10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received).toHaveLength(1);
    expect((await createOutboxRepository(test.db).listRecent(1))[0]?.status).toBe('queued');
  });

  it('should never send a mail twice when two workers run at the same time', async () => {
    const server = await smtpServer(0, { acceptDelayMs: 3 });
    const total = 40;
    // On PostgreSQL each worker gets its own connection pool to one database, as two server
    // processes would; PGlite is one process, so both workers share it.
    let databases: [Database, Database] = [test.db, test.db];
    let postgresName: string | null = null;
    if (backend === 'postgres') {
      postgresName = await createPostgresDatabase();
      const firstPool = await openPostgres(postgresUrlFor(postgresName), 'first worker', { max: 2 });
      const secondPool = await openPostgres(postgresUrlFor(postgresName), 'second worker', { max: 2 });
      await migrate(firstPool);
      databases = [firstPool, secondPool];
    }
    try {
      for (let index = 0; index < total; index += 1) await createOutboxRepository(databases[0]).enqueue(mail(200 + index), clock.now());
      const workers = databases.map((db) =>
        createOutboxWorker({
          db,
          mailer: mailerFor(server.port),
          clock,
          logger: collectingLogger(),
          pollMs: 50,
          maxAttempts: 5,
          batchSize: 4,
        }),
      );
      const results = await Promise.all(workers.map((outbox) => outbox.runOnce()));
      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(total);
      // Both did part of the work, so the two really ran side by side.
      for (const result of results) expect(result.sent).toBeGreaterThan(0);
      const subjects = server.received.map((received) => received.parsed.subject);
      expect(subjects).toHaveLength(total);
      expect(new Set(subjects).size).toBe(total);
      const rows = await createOutboxRepository(databases[1]).listRecent(100);
      expect(rows).toHaveLength(total);
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    } finally {
      if (postgresName !== null) {
        for (const db of databases) await db.close();
        await dropPostgresDatabase(postgresName);
      }
    }
  });
});
