import type { Queryable } from '../../db/connection';
import type { Clock } from '../clock';
import type { Mailer } from '../mailer';
import {
  claimDueMails,
  countPendingMails,
  deleteSentMailsBefore,
  markMailAttemptFailed,
  markMailSent,
  releaseMail,
  type OutboxMail,
} from './outbox-repository';

/**
 * Sends what the outbox holds (0003_outbox.sql). Every poll claims due mails in one statement
 * (FOR UPDATE SKIP LOCKED, so several server processes on one PostgreSQL never send the same
 * mail twice), sends them one by one through the mailer, and records the outcome: sent; back in
 * the queue with a growing delay; or, after maxAttempts or a permanent refusal, failed and kept.
 *
 * Delivery is at-least-once in one case only: a process that dies after the SMTP server accepted
 * a mail but before the row says 'sent' leaves a claim whose lease runs out, and the mail is sent
 * again. Losing a mail would be worse than a rare duplicate.
 */

/** The log methods the worker uses; Fastify's (pino) logger fits. Lines never hold an address or a name. */
export interface OutboxLogger {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

export interface OutboxWorkerOptions {
  db: Queryable;
  mailer: Mailer;
  clock: Clock;
  logger: OutboxLogger;
  /** Pause between polls when nothing is due. */
  pollMs: number;
  /** Attempts before a mail is given up as 'failed'. */
  maxAttempts: number;
  /** Mails claimed per statement. */
  batchSize?: number;
  /** How long a claim lasts; longer than the mailer's own timeouts (about 40 s at worst). */
  leaseMs?: number;
  /** Delay before the next attempt after `attempts` failed ones. */
  backoffMs?: (attempts: number) => number;
  /** Sent mail older than this is deleted (checked at most hourly); omitted: kept. */
  keepSentMs?: number;
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

export const DEFAULT_BATCH_SIZE = 10;
export const DEFAULT_LEASE_MS = 5 * 60_000;
/** A claimed mail is only sent while at least this much of its lease is left (one send's worst case). */
const LEASE_MARGIN_MS = 60_000;
const PURGE_EVERY_MS = 60 * 60_000;
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;

/** 30 s, 1 min, 2 min, … doubling up to one hour between attempts. */
export function defaultBackoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

const NETWORK_CAUSES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE'];

function field(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null && name in error ? (Reflect.get(error, name) as unknown) : undefined;
}

/**
 * What went wrong, without personal data: nodemailer's error code, the SMTP reply code and the
 * command, never the reply text (a server's "550 <jane@example.com>: unknown user" names the
 * patient). Example: 'EENVELOPE 550 RCPT TO'.
 */
export function describeSendError(error: unknown): string {
  const code = field(error, 'code');
  const responseCode = field(error, 'responseCode');
  const command = field(error, 'command');
  const message = field(error, 'message');
  // nodemailer reports a refused connection as ESOCKET; the network cause is worth keeping.
  const cause = typeof message === 'string' ? NETWORK_CAUSES.find((candidate) => message.includes(candidate)) : undefined;
  const parts = [
    typeof code === 'string' && /^[A-Za-z_]{1,40}$/.test(code) ? code : 'send_failed',
    ...(typeof responseCode === 'number' && Number.isInteger(responseCode) ? [String(responseCode)] : []),
    ...(typeof command === 'string' && /^[A-Z][A-Z ]{0,19}$/.test(command) ? [command] : []),
    ...(cause === undefined ? [] : [`(${cause})`]),
  ];
  return parts.join(' ');
}

/** Failures of the connection or the login, not of one mail: every other mail would fail the same way. */
const TRANSPORT_ERROR_CODES = new Set(['ESOCKET', 'ECONNECTION', 'ETIMEDOUT', 'EDNS', 'ETLS', 'EAUTH', 'EPROTOCOL', 'mail_not_configured']);

export function isTransportError(error: unknown): boolean {
  const code = field(error, 'code');
  return typeof code === 'string' && TRANSPORT_ERROR_CODES.has(code);
}

/** A refusal that no retry will change: the server rejected the recipient or the message (5xx). */
export function isPermanentSendError(error: unknown): boolean {
  const code = field(error, 'code');
  const responseCode = field(error, 'responseCode');
  return (code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, mailer, clock, logger, pollMs, maxAttempts } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;
  // Set by stop() only, so a test calling runOnce() without start() still drains every batch.
  let stopRequested = false;
  let toldNoTransport = false;
  let pollFailing = false;
  let lastPurgeAt = Number.NEGATIVE_INFINITY;

  async function purgeOldSentMail(): Promise<void> {
    if (options.keepSentMs === undefined) return;
    const now = clock.now().getTime();
    if (now - lastPurgeAt < PURGE_EVERY_MS) return;
    lastPurgeAt = now;
    const deleted = await deleteSentMailsBefore(db, new Date(now - options.keepSentMs));
    if (deleted > 0) logger.info({ deleted }, '[outbox] deleted old sent mail');
  }

  /** Sends one claimed mail and records the outcome; answers the retry time when the transport itself failed. */
  async function deliver(mail: OutboxMail, result: OutboxRunResult): Promise<Date | null> {
    try {
      await mailer.send({
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === null ? {} : { html: mail.html }),
        attachments: mail.attachments,
      });
    } catch (error) {
      const description = describeSendError(error);
      const giveUp = mail.attempts >= maxAttempts || isPermanentSendError(error);
      const retryAt = giveUp ? null : new Date(clock.now().getTime() + backoffMs(mail.attempts));
      await markMailAttemptFailed(db, mail.id, mail.attempts, description, retryAt);
      if (retryAt === null) {
        result.failed += 1;
        logger.error({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts, error: description }, '[outbox] gave up on a mail');
      } else {
        result.retried += 1;
        logger.warn(
          { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, error: description, retryAt: retryAt.toISOString() },
          '[outbox] sending failed; will retry',
        );
      }
      // The rest of the batch waits as long as this mail does: the delay grows with the outage.
      return isTransportError(error) ? (retryAt ?? new Date(clock.now().getTime() + backoffMs(1))) : null;
    }
    if (await markMailSent(db, mail.id, mail.attempts, clock.now())) {
      result.sent += 1;
      logger.info({ mailId: mail.id, kind: mail.kind, attempts: mail.attempts }, '[outbox] sent');
    } else {
      logger.warn({ mailId: mail.id, kind: mail.kind }, '[outbox] sent, but the claim had expired and was taken over');
    }
    return null;
  }

  async function runOnce(): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { sent: 0, retried: 0, failed: 0 };
    await purgeOldSentMail();
    if (!mailer.configured) {
      if (!toldNoTransport) {
        toldNoTransport = true;
        const waiting = await countPendingMails(db);
        logger.warn({ waiting }, '[outbox] SMTP_HOST is not set: e-mail stays queued in the outbox and is sent once SMTP is configured');
      }
      return result;
    }
    for (;;) {
      const now = clock.now();
      const leaseUntil = now.getTime() + leaseMs;
      const claimed = await claimDueMails(db, now, new Date(leaseUntil), batchSize);
      let transportDownUntil: Date | null = null;
      for (const mail of claimed) {
        if (transportDownUntil !== null) {
          // The server is down or refuses us: the rest of the batch waits, untried, instead of
          // each failing in turn (and each using up an attempt).
          await releaseMail(db, mail.id, mail.attempts, transportDownUntil);
        } else if (clock.now().getTime() >= leaseUntil - LEASE_MARGIN_MS) {
          // Slow sends ate the claim: another worker may take the mail any moment, so do not send it.
          await releaseMail(db, mail.id, mail.attempts, clock.now());
        } else {
          transportDownUntil = await deliver(mail, result);
        }
      }
      if (claimed.length < batchSize || stopRequested || transportDownUntil !== null) return result;
    }
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      const pass = runOnce()
        .then(() => {
          if (pollFailing) logger.info({}, '[outbox] polling works again');
          pollFailing = false;
        })
        .catch((error: unknown) => {
          // Usually the database is briefly unreachable; say so once per outage, keep polling.
          if (!pollFailing) logger.error({ err: error }, '[outbox] poll failed; retrying');
          pollFailing = true;
        })
        .finally(() => {
          running = null;
          schedule(pollMs);
        });
      running = pass;
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
