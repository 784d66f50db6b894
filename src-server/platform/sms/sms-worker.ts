import type { Queryable } from '../../db/connection';
import { createOutboxLoop, type OutboxLoopOptions, type OutboxWorker } from '../outbox/outbox-loop';
import { createSmsOutboxRepository, type OutboxSms } from './sms-outbox-repository';
import { SmsSendError, type SmsSender } from './sms-provider';

/**
 * Sends what the SMS outbox holds through the provider, with the delivery loop the mail outbox
 * uses (platform/outbox/outbox-loop.ts): claims with a lease, retries with backoff (30 s, 1 min,
 * … up to 1 h), gives up and keeps after maxAttempts or a permanent refusal, and gives the rest
 * of the batch back untried while the provider itself is down.
 */

export interface SmsWorkerOptions extends OutboxLoopOptions {
  db: Queryable;
  sender: SmsSender;
}

function asSmsError(error: unknown): SmsSendError {
  return error instanceof SmsSendError ? error : new SmsSendError('send_failed', { permanent: false, transport: false });
}

export function createSmsWorker(options: SmsWorkerOptions): OutboxWorker {
  const { db, sender, ...loop } = options;
  const outbox = createSmsOutboxRepository(db);
  return createOutboxLoop<OutboxSms>(
    {
      name: 'sms-outbox',
      idField: 'smsId',
      itemNoun: 'an SMS',
      sentNoun: 'SMS',
      configured: () => sender.configured,
      notConfiguredMessage: 'SMS_PROVIDER_URL is not set: SMS stays queued',
      claimDue: (now, leaseUntil, limit) => outbox.claimDue(now, leaseUntil, limit),
      countPending: () => outbox.countPending(),
      deleteSentBefore: (before) => outbox.deleteSentBefore(before),
      send: (sms) => sender.send({ to: sms.recipient, text: sms.text }),
      failure: (error) => {
        const smsError = asSmsError(error);
        return { code: smsError.code, permanent: smsError.permanent, transport: smsError.transport };
      },
      markSent: (sms, at) => outbox.settle(sms, { kind: 'sent', at }),
      markFailed: (sms, code, retryAt) =>
        outbox.settle(sms, retryAt === null ? { kind: 'failed', error: code } : { kind: 'retry', at: retryAt, error: code }),
      release: (sms, at) => outbox.settle(sms, { kind: 'release', at }),
    },
    loop,
  );
}
