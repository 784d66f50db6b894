import type { Queryable } from '../../db/connection';
import type { Mailer } from '../mailer';
import { createOutboxLoop, type OutboxLoopOptions, type OutboxWorker } from './outbox-loop';
import { createOutboxRepository, type OutboxMail } from './outbox-repository';

/**
 * Sends what the mail outbox holds (0003_outbox.sql) through the mailer, with the shared
 * delivery loop (outbox-loop.ts): claims with a lease, retries with backoff, gives up and keeps.
 *
 * Delivery is at-least-once in one case only: a process that dies after the SMTP server accepted
 * a mail but before the row says 'sent' leaves a claim whose lease runs out, and the mail is sent
 * again. Losing a mail would be worse than a rare duplicate.
 */

export { defaultBackoffMs, type OutboxLogger, type OutboxRunResult, type OutboxWorker } from './outbox-loop';

/** The shared loop's options (leaseMs: longer than the mailer's own timeouts, about 40 s at worst). */
export interface OutboxWorkerOptions extends OutboxLoopOptions {
  db: Queryable;
  mailer: Mailer;
  /**
   * What each mail becomes as it goes out (the server's: modules/unsubscribe, app.outgoingMailPolicy):
   * the recipient's own unsubscribe link and headers, or skipped when the recipient unsubscribed.
   * Without one a mail goes out as queued (tests of the delivery loop alone).
   */
  policy?: OutgoingMailPolicy;
}

/** The mail as it goes out to its recipient. */
export interface PreparedMail {
  text: string;
  html: string | null;
  headers: Readonly<Record<string, string>>;
}

/** Decided per mail at send time, so every kind, and a mail queued before an unsubscribe, follows the rule. */
export interface OutgoingMailPolicy {
  /** True: not to be sent (the recipient unsubscribed from mail of this kind). */
  skip(mail: OutboxMail): Promise<boolean>;
  prepare(mail: OutboxMail): Promise<PreparedMail>;
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
  const { db, mailer, policy, ...loop } = options;
  const outbox = createOutboxRepository(db);
  return createOutboxLoop<OutboxMail>(
    {
      name: 'outbox',
      idField: 'mailId',
      itemNoun: 'a mail',
      sentNoun: 'mail',
      configured: () => mailer.configured,
      notConfiguredMessage: 'SMTP_HOST is not set: e-mail stays queued in the outbox and is sent once SMTP is configured',
      claimDue: (now, leaseUntil, limit) => outbox.claimDue(now, leaseUntil, limit),
      countPending: () => outbox.countPending(),
      deleteSentBefore: (before) => outbox.deleteSentBefore(before),
      send: async (mail) => {
        const prepared: PreparedMail =
          policy === undefined ? { text: mail.text, html: mail.html, headers: {} } : await policy.prepare(mail);
        return mailer.send({
          to: mail.recipient,
          subject: mail.subject,
          text: prepared.text,
          ...(prepared.html === null ? {} : { html: prepared.html }),
          attachments: mail.attachments,
          ...(Object.keys(prepared.headers).length === 0 ? {} : { headers: prepared.headers }),
        });
      },
      ...(policy === undefined
        ? {}
        : {
            skip: (mail: OutboxMail) => policy.skip(mail),
            markSkipped: (mail: OutboxMail, at: Date) => outbox.markSkipped(mail.id, mail.attempts, at),
          }),
      failure: (error) => ({ code: describeSendError(error), permanent: isPermanentSendError(error), transport: isTransportError(error) }),
      markSent: (mail, at) => outbox.markSent(mail.id, mail.attempts, at),
      markFailed: (mail, code, retryAt) => outbox.markAttemptFailed(mail.id, mail.attempts, code, retryAt),
      release: (mail, at) => outbox.release(mail.id, mail.attempts, at),
    },
    loop,
  );
}
