import type { Clock } from '../clock';
import type { ClaimOutcome } from './outbox-repository';

/**
 * The delivery loop shared by the mail and the SMS outbox. Every poll claims due items in one
 * statement (FOR UPDATE SKIP LOCKED, so several server processes on one PostgreSQL never send
 * the same item twice), sends them one by one, and records the outcome: sent; back in the queue
 * with a growing delay; or, after maxAttempts or a permanent refusal, failed and kept. When the
 * provider itself is down, the rest of the batch waits untried instead of each item failing in
 * turn. A channel (outbox-worker.ts for mail, sms/sms-worker.ts for SMS) supplies the table's
 * statements, the send, and how to read its errors.
 */

/** The log methods the loop uses; Fastify's (pino) logger fits. Lines never hold an address or a name. */
export interface OutboxLogger {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

export interface OutboxRunResult {
  sent: number;
  retried: number;
  failed: number;
}

export interface OutboxWorker {
  /** Starts polling; the first poll runs at once. */
  start(): void;
  /** Stops polling and waits for a send in progress to be recorded. */
  stop(): Promise<void>;
  /** One pass: sends everything due now. Tests call it directly with a test clock. */
  runOnce(): Promise<OutboxRunResult>;
}

/** One claimed row of an outbox table. */
export interface OutboxItem {
  id: number;
  kind: string;
  /** Attempts including the current claim. */
  attempts: number;
}

/** What a failed send means, without personal data. */
export interface SendFailure {
  /** Short code for the row and the log, e.g. 'EENVELOPE 550 RCPT TO' or 'http_503'. */
  code: string;
  /** No retry will change it (the recipient or the message was refused). */
  permanent: boolean;
  /** The connection or the provider failed, not this one item: the rest of the batch waits. */
  transport: boolean;
}

export interface OutboxChannel<Item extends OutboxItem> {
  /** Log prefix without brackets, e.g. 'outbox'. */
  name: string;
  /** Log field naming an item's id, e.g. 'mailId'. */
  idField: string;
  /** What an item is called in 'gave up on …' lines, e.g. 'a mail'. */
  itemNoun: string;
  /** What sent items are called in the purge line, e.g. 'mail'. */
  sentNoun: string;
  /** Whether the provider is configured; when not, items stay queued and this is logged once. */
  configured(): boolean;
  notConfiguredMessage: string;
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Item[]>;
  countPending(): Promise<number>;
  deleteSentBefore(before: Date): Promise<number>;
  send(item: Item): Promise<unknown>;
  failure(error: unknown): SendFailure;
  /** False when the claim had expired and another worker took the item over. */
  markSent(item: Item, at: Date): Promise<boolean>;
  /** Back in the queue at retryAt (the attempt counts), or failed and kept when retryAt is null. */
  markFailed(item: Item, code: string, retryAt: Date | null): Promise<unknown>;
  /** Back in the queue at `at`, untried (the attempt is given back). */
  release(item: Item, at: Date): Promise<unknown>;
  /**
   * Optional: whether an item is to be left unsent (its recipient unsubscribed after it was
   * queued); such an item is recorded with markSkipped and not counted as sent or failed.
   */
  skip?(item: Item): Promise<boolean>;
  markSkipped?(item: Item, at: Date): Promise<unknown>;
}

/** A failure the sender did not describe (not the provider's answer): this one item's, tried again. */
export const UNDESCRIBED_SEND_FAILURE: SendFailure = { code: 'send_failed', permanent: false, transport: false };

/** A table whose claims are settled with one statement per outcome (settleClaimedRow: the SMS outbox, the RIS hand-offs). */
export interface SettledQueue<Item extends OutboxItem> {
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Item[]>;
  countPending(): Promise<number>;
  settle(claim: Item, outcome: ClaimOutcome): Promise<boolean>;
}

/** A channel's statements over such a table, but for the step once an item is sent. */
export function settledQueueStatements<Item extends OutboxItem>(
  queue: SettledQueue<Item>,
): Pick<OutboxChannel<Item>, 'claimDue' | 'countPending' | 'markFailed' | 'release'> {
  return {
    claimDue: (now, leaseUntil, limit) => queue.claimDue(now, leaseUntil, limit),
    countPending: () => queue.countPending(),
    markFailed: (item, code, retryAt) =>
      queue.settle(item, retryAt === null ? { kind: 'failed', error: code } : { kind: 'retry', at: retryAt, error: code }),
    release: (item, at) => queue.settle(item, { kind: 'release', at }),
  };
}

export interface OutboxLoopOptions {
  clock: Clock;
  logger: OutboxLogger;
  /** Pause between polls when nothing is due. */
  pollMs: number;
  /** Attempts before an item is given up as 'failed'. */
  maxAttempts: number;
  /** Items claimed per statement. */
  batchSize?: number;
  /** How long a claim lasts; longer than the provider's own timeouts. */
  leaseMs?: number;
  /** Delay before the next attempt after `attempts` failed ones. */
  backoffMs?: (attempts: number) => number;
  /** Sent items older than this are deleted (checked at most hourly); omitted: kept. */
  keepSentMs?: number;
  /** Hears how each tried item ended (the server's metrics: app.metrics.outboxDelivery). */
  observe?: (outcome: DeliveryOutcome) => void;
}

/** How a claimed item ended: sent; failed and queued again (retried); given up (failed); left unsent for an unsubscribe (skipped). */
export type DeliveryOutcome = 'sent' | 'retried' | 'failed' | 'skipped';

export const DEFAULT_BATCH_SIZE = 10;
export const DEFAULT_LEASE_MS = 5 * 60_000;
/** A claimed item is only sent while at least this much of its lease is left (one send's worst case). */
const LEASE_MARGIN_MS = 60_000;
const PURGE_EVERY_MS = 60 * 60_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** 30 s, 1 min, 2 min, … doubling up to one hour between attempts. */
export function defaultBackoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

export function createOutboxLoop<Item extends OutboxItem>(channel: OutboxChannel<Item>, options: OutboxLoopOptions): OutboxWorker {
  const { clock, logger, pollMs, maxAttempts } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const prefix = `[${channel.name}]`;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;
  // Set by stop() only, so a test calling runOnce() without start() still drains every batch.
  let stopRequested = false;
  let toldNotConfigured = false;
  let pollFailing = false;
  let lastPurgeAt = Number.NEGATIVE_INFINITY;

  async function purgeOldSent(): Promise<void> {
    if (options.keepSentMs === undefined) return;
    const now = clock.now().getTime();
    if (now - lastPurgeAt < PURGE_EVERY_MS) return;
    lastPurgeAt = now;
    const deleted = await channel.deleteSentBefore(new Date(now - options.keepSentMs));
    if (deleted > 0) logger.info({ deleted }, `${prefix} deleted old sent ${channel.sentNoun}`);
  }

  /** Sends one claimed item and records the outcome; answers the retry time when the provider itself failed. */
  async function deliver(item: Item, result: OutboxRunResult): Promise<Date | null> {
    const fields = { [channel.idField]: item.id, kind: item.kind, attempts: item.attempts };
    if (channel.skip !== undefined && channel.markSkipped !== undefined && (await channel.skip(item))) {
      await channel.markSkipped(item, clock.now());
      options.observe?.('skipped');
      logger.info(fields, `${prefix} not sent: the recipient unsubscribed`);
      return null;
    }
    try {
      await channel.send(item);
    } catch (error) {
      const failure = channel.failure(error);
      const giveUp = item.attempts >= maxAttempts || failure.permanent;
      const retryAt = giveUp ? null : new Date(clock.now().getTime() + backoffMs(item.attempts));
      await channel.markFailed(item, failure.code, retryAt);
      options.observe?.(retryAt === null ? 'failed' : 'retried');
      if (retryAt === null) {
        result.failed += 1;
        logger.error({ ...fields, error: failure.code }, `${prefix} gave up on ${channel.itemNoun}`);
      } else {
        result.retried += 1;
        logger.warn({ ...fields, error: failure.code, retryAt: retryAt.toISOString() }, `${prefix} sending failed; will retry`);
      }
      // The rest of the batch waits as long as this item does: the delay grows with the outage.
      return failure.transport ? (retryAt ?? new Date(clock.now().getTime() + backoffMs(1))) : null;
    }
    if (await channel.markSent(item, clock.now())) {
      result.sent += 1;
      options.observe?.('sent');
      logger.info(fields, `${prefix} sent`);
    } else {
      logger.warn({ [channel.idField]: item.id, kind: item.kind }, `${prefix} sent, but the claim had expired and was taken over`);
    }
    return null;
  }

  async function runOnce(): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { sent: 0, retried: 0, failed: 0 };
    await purgeOldSent();
    if (!channel.configured()) {
      if (!toldNotConfigured) {
        toldNotConfigured = true;
        logger.warn({ waiting: await channel.countPending() }, `${prefix} ${channel.notConfiguredMessage}`);
      }
      return result;
    }
    for (;;) {
      const now = clock.now();
      const leaseUntil = now.getTime() + leaseMs;
      const claimed = await channel.claimDue(now, new Date(leaseUntil), batchSize);
      let providerDownUntil: Date | null = null;
      for (const item of claimed) {
        if (providerDownUntil !== null) {
          // The provider is down or refuses us: the rest of the batch waits, untried, instead of
          // each failing in turn (and each using up an attempt).
          await channel.release(item, providerDownUntil);
        } else if (clock.now().getTime() >= leaseUntil - LEASE_MARGIN_MS) {
          // Slow sends ate the claim: another worker may take the item any moment, so do not send it.
          await channel.release(item, clock.now());
        } else {
          providerDownUntil = await deliver(item, result);
        }
      }
      if (claimed.length < batchSize || stopRequested || providerDownUntil !== null) return result;
    }
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = runOnce()
        .then(() => {
          if (pollFailing) logger.info({}, `${prefix} polling works again`);
          pollFailing = false;
        })
        .catch((error: unknown) => {
          // Usually the database is briefly unreachable; say so once per outage, keep polling.
          if (!pollFailing) logger.error({ err: error }, `${prefix} poll failed; retrying`);
          pollFailing = true;
        })
        .finally(() => {
          running = null;
          schedule(pollMs);
        });
    }, delayMs);
    // The poll timer alone must not keep a process alive that is otherwise done.
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      stopRequested = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      stopRequested = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running;
    },
    runOnce,
  };
}
