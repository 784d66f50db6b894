import type { Queryable } from '../../db/connection';
import {
  createOutboxLoop,
  settledQueueStatements,
  UNDESCRIBED_SEND_FAILURE,
  type OutboxLoopOptions,
  type OutboxWorker,
} from '../outbox/outbox-loop';
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
      ...settledQueueStatements<OutboxSms>(outbox),
      deleteSentBefore: (before) => outbox.deleteSentBefore(before),
      send: (sms) => sender.send({ to: sms.recipient, text: sms.text }),
      failure: (error) =>
        error instanceof SmsSendError
          ? { code: error.code, permanent: error.permanent, transport: error.transport }
          : UNDESCRIBED_SEND_FAILURE,
      markSent: (sms, at) => outbox.settle(sms, { kind: 'sent', at }),
    },
    loop,
  );
}
