import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../../../src-server/platform/clock';
import { createSmsOutboxRepository, normalisePhoneNumber } from '../../../../src-server/platform/sms/sms-outbox-repository';
import { createHttpSmsSender, errorForStatus, noSmsSender } from '../../../../src-server/platform/sms/sms-provider';
import { createSmsWorker } from '../../../../src-server/platform/sms/sms-worker';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestDatabase } from '../../helpers/test-app';
import { collectingLogger, freePort } from '../../helpers/test-smtp-server';
import { startTestSmsProvider, type TestSmsProvider } from '../../helpers/test-sms-provider';

// The SMS outbox against a real HTTP provider (node:http in this process) and a real database:
// delivery, the provider down and back, retries with backoff, giving up, and batches.

const KEY = 'sms-test-key';

describe.each(backends())('SMS outbox on %s', (backend) => {
  const test = useTestDatabase({ backend, state: 'migrated' });
  let provider: TestSmsProvider;
  let clock: TestClock;
  beforeAll(async () => {
    provider = await startTestSmsProvider();
  });
  afterAll(async () => {
    await provider.stop();
  });

  beforeEach(async () => {
    clock = createTestClock(SEED_NOW);
    provider.received.length = 0;
    provider.status = 202;
    await test.db.query(`delete from outbox_sms`);
  });

  const worker = (url: string, maxAttempts = 3) =>
    createSmsWorker({
      db: test.db,
      sender: createHttpSmsSender({ url, apiKey: KEY }, { timeoutMs: 2000 }),
      clock,
      logger: collectingLogger(),
      pollMs: 1000,
      maxAttempts,
    });

  it('POSTs {to, text} as JSON with the bearer key and marks the SMS sent', async () => {
    const id = await createSmsOutboxRepository(test.db).enqueue(
      { kind: 'otp_code', recipient: '0491 570 006', text: '123456 is your code' },
      clock.now(),
    );
    expect(await worker(provider.url).runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(provider.received).toEqual([
      {
        method: 'POST',
        path: '/v1/messages',
        authorization: `Bearer ${KEY}`,
        contentType: 'application/json',
        body: { to: '0491570006', text: '123456 is your code' },
      },
    ]);
    expect(await createSmsOutboxRepository(test.db).find(id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      lastError: null,
      sentAt: SEED_NOW,
    });
    // Nothing is due any more: a second pass sends nothing.
    expect(await worker(provider.url).runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it('keeps SMS queued while the provider is down and sends it once it is back', async () => {
    const port = await freePort();
    const downUrl = `http://127.0.0.1:${port}/v1/messages`;
    const first = await createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: '0491570006', text: 'one' }, clock.now());
    const second = await createSmsOutboxRepository(test.db).enqueue(
      { kind: 'otp_code', recipient: '0491570156', text: 'two' },
      clock.now(),
    );
    expect(await worker(downUrl).runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const tried = await createSmsOutboxRepository(test.db).find(first);
    expect(tried).toMatchObject({ status: 'queued', attempts: 1, lastError: 'ECONNREFUSED' });
    expect(tried?.nextAttemptAt).toBe(new Date(Date.parse(SEED_NOW) + 30_000).toISOString());
    // The rest of the batch waits untried, its attempt not used up.
    expect(await createSmsOutboxRepository(test.db).find(second)).toMatchObject({
      status: 'queued',
      attempts: 0,
      nextAttemptAt: tried?.nextAttemptAt,
    });

    // Not due yet: nothing happens.
    const back = await startTestSmsProvider(port);
    try {
      expect(await worker(back.url).runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
      clock.advance(30_000);
      expect(await worker(back.url).runOnce()).toEqual({ sent: 2, retried: 0, failed: 0 });
      expect(back.received.map((sms) => (sms.body as { text: string }).text)).toEqual(['one', 'two']);
      expect(await createSmsOutboxRepository(test.db).find(first)).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await back.stop();
    }
  });

  it('retries a 503 with a growing delay and gives up after maxAttempts, keeping the row as failed', async () => {
    provider.status = 503;
    const id = await createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: '0491570006', text: 'x' }, clock.now());
    const sender = worker(provider.url, 3);
    expect(await sender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(await createSmsOutboxRepository(test.db).find(id)).toMatchObject({ attempts: 1, lastError: 'http_503' });
    clock.advance(30_000);
    expect(await sender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const second = await createSmsOutboxRepository(test.db).find(id);
    expect(second?.nextAttemptAt).toBe(new Date(clock.now().getTime() + 60_000).toISOString());
    clock.advance(60_000);
    expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await createSmsOutboxRepository(test.db).find(id)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'http_503' });
    expect(provider.received).toHaveLength(3);
  });

  it('gives up at once when the provider refuses the message (400) and goes on with the next', async () => {
    provider.status = 400;
    const refused = await createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: '0491570006', text: 'a' }, clock.now());
    await createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: '0491570156', text: 'b' }, clock.now());
    expect(await worker(provider.url).runOnce()).toEqual({ sent: 0, retried: 0, failed: 2 });
    expect(await createSmsOutboxRepository(test.db).find(refused)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'http_400' });
  });

  it('leaves SMS queued when no provider is configured', async () => {
    const id = await createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: '0491570006', text: 'x' }, clock.now());
    const logger = collectingLogger();
    const idle = createSmsWorker({ db: test.db, sender: noSmsSender, clock, logger, pollMs: 1000, maxAttempts: 3 });
    expect(await idle.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await createSmsOutboxRepository(test.db).find(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(logger.lines.map((line) => line.message).join('\n')).toContain('SMS_PROVIDER_URL is not set');
  });

  it('sends from start() on its own and stops cleanly', async () => {
    await createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: '0491570006', text: 'polled' }, clock.now());
    const polling = createSmsWorker({
      db: test.db,
      sender: createHttpSmsSender({ url: provider.url, apiKey: KEY }),
      clock,
      logger: collectingLogger(),
      pollMs: 100,
      maxAttempts: 3,
    });
    polling.start();
    try {
      await provider.waitFor(1);
    } finally {
      await polling.stop();
    }
    expect((provider.received[0]?.body as { text: string }).text).toBe('polled');
  });

  it('refuses a recipient that is not a phone number', async () => {
    await expect(
      createSmsOutboxRepository(test.db).enqueue({ kind: 'otp_code', recipient: 'not a number', text: 'x' }, clock.now()),
    ).rejects.toThrow();
  });
});

describe('SMS helpers', () => {
  it.each([
    ['0491 570 006', '0491570006'],
    ['+61 491-570-006', '+61491570006'],
    ['(02) 9999 0000', '0299990000'],
    ['12345', null],
    ['04915700060000000', null],
    ['call me', null],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normalisePhoneNumber(raw)).toBe(expected);
  });

  it.each([
    [400, true, false],
    [422, true, false],
    [401, false, true],
    [404, false, true],
    [408, false, true],
    [429, false, true],
    [500, false, true],
    [503, false, true],
  ])('classifies HTTP %i (permanent %s, provider-wide %s)', (status, permanent, transport) => {
    const error = errorForStatus(status);
    expect(error.code).toBe(`http_${status}`);
    expect(error.permanent).toBe(permanent);
    expect(error.transport).toBe(transport);
  });
});
