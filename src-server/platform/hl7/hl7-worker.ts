import type { Database } from '../../db/connection';
import {
  createOutboxLoop,
  settledQueueStatements,
  UNDESCRIBED_SEND_FAILURE,
  type OutboxLoopOptions,
  type OutboxWorker,
} from '../outbox/outbox-loop';
import { sendHl7, Hl7SendError, type Hl7Destination } from './mllp-sender';
import { createHl7OutboundRepository, type Hl7Outbound } from './outbound-repository';

/**
 * Sends the queued HL7 messages to the RIS with the outbox's loop (a claim with a lease, retries
 * with back-off, failures kept): 5 s doubling to at most 5 minutes between attempts, about a day
 * of attempts (HL7_MAX_ATTEMPTS) before a message is kept as failed. A refusal (AR) is not tried
 * again. A message whose appointment has an earlier one unsent waits for it (outbound-repository.ts).
 */

export const HL7_POLL_MS = 1_000;
export const HL7_MAX_ATTEMPTS = 300;

export function hl7BackoffMs(attempts: number): number {
  return Math.min(5 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
}

export interface Hl7WorkerOptions extends Omit<OutboxLoopOptions, 'pollMs' | 'backoffMs' | 'maxAttempts'> {
  db: Database;
  destination: Hl7Destination;
  pollMs?: number;
  maxAttempts?: number;
  backoffMs?: (attempts: number) => number;
}

export function createHl7Worker(options: Hl7WorkerOptions): OutboxWorker {
  const { db, destination, ...loop } = options;
  const outbound = createHl7OutboundRepository(db);
  return createOutboxLoop<Hl7Outbound>(
    {
      name: 'hl7',
      idField: 'hl7MessageId',
      itemNoun: 'an HL7 message',
      sentNoun: 'HL7 messages',
      configured: () => true,
      notConfiguredMessage: 'HL7_RIS_ADDRESS is not set',
      ...settledQueueStatements<Hl7Outbound>(outbound),
      // Sent messages are the record of what the RIS was told: kept.
      deleteSentBefore: async () => 0,
      send: (message) => sendHl7(destination, message.message),
      failure: (error) => (error instanceof Hl7SendError ? { code: error.code, ...error.options } : UNDESCRIBED_SEND_FAILURE),
      markSent: (message, at) => outbound.settle(message, { kind: 'sent', at }),
    },
    {
      ...loop,
      pollMs: loop.pollMs ?? HL7_POLL_MS,
      maxAttempts: loop.maxAttempts ?? HL7_MAX_ATTEMPTS,
      backoffMs: loop.backoffMs ?? hl7BackoffMs,
    },
  );
}
