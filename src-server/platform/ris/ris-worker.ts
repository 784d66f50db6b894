import type { Database, Queryable } from '../../db/connection';
import {
  createOutboxLoop,
  settledQueueStatements,
  UNDESCRIBED_SEND_FAILURE,
  type OutboxLoopOptions,
  type OutboxWorker,
} from '../outbox/outbox-loop';
import { createHandoffRepository, type RisHandoff } from './handoff-repository';
import { RisSendError, type RisSender } from './webhook';

/**
 * Delivers the check-in hand-offs to the clinic's RIS with the outbox's loop (claims with a
 * lease, retries with back-off, keeps what fails). A patient stands waiting, so the back-off is
 * short: 2 s, 4 s, 8 s … at most 30 s between attempts (RIS_BACKOFF_MS). When a check-in hand-off
 * is delivered, its appointment becomes CHECKED_IN in the same transaction.
 */

export const RIS_POLL_MS = 1_000;
/** About four minutes of attempts (2 s doubling to 30 s) before a hand-off fails and the patient is sent to the desk. */
export const RIS_MAX_ATTEMPTS = 12;

export function risBackoffMs(attempts: number): number {
  return Math.min(30_000, 2_000 * 2 ** Math.max(0, attempts - 1));
}

export interface RisWorkerOptions extends Omit<OutboxLoopOptions, 'pollMs' | 'backoffMs'> {
  db: Database;
  sender: RisSender;
  /** The check-in module's step once a check-in is delivered, in the hand-off's transaction. */
  markCheckedIn: (tx: Queryable, appointmentId: string, at: Date) => Promise<void>;
  pollMs?: number;
  backoffMs?: (attempts: number) => number;
}

const EVENTS = { prepare_check_in: 'check_in.prepare', check_in: 'check_in.complete' } as const;

export function createRisWorker(options: RisWorkerOptions): OutboxWorker {
  const { db, sender, markCheckedIn, ...loop } = options;
  const handoffs = createHandoffRepository(db);
  return createOutboxLoop<RisHandoff>(
    {
      name: 'ris',
      idField: 'handoffId',
      itemNoun: 'a check-in hand-off',
      sentNoun: 'hand-offs',
      configured: () => sender.configured,
      notConfiguredMessage:
        'RIS_WEBHOOK_URL (or HL7_RIS_ADDRESS) is not set: check-in hand-offs stay queued until the clinic system is configured',
      ...settledQueueStatements<RisHandoff>(handoffs),
      deleteSentBefore: () => handoffs.deleteSentBefore(),
      send: (handoff) =>
        sender.send({
          idempotencyKey: `${handoff.kind}-${handoff.appointmentId}`,
          event: EVENTS[handoff.kind],
          appointmentId: handoff.appointmentId,
          queuedAt: new Date(handoff.createdAt),
          payload: handoff.payload,
        }),
      failure: (error) => (error instanceof RisSendError ? { code: error.code, ...error.options } : UNDESCRIBED_SEND_FAILURE),
      markSent: (handoff, at) =>
        db.transaction(async (tx) => {
          const settled = await handoffs.settle(handoff, { kind: 'sent', at }, tx);
          if (settled && handoff.kind === 'check_in') {
            await markCheckedIn(tx, handoff.appointmentId, at);
          }
          return settled;
        }),
    },
    { ...loop, pollMs: loop.pollMs ?? RIS_POLL_MS, backoffMs: loop.backoffMs ?? risBackoffMs },
  );
}
