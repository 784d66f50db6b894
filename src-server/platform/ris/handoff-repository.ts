import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import { claimDueRows, settleClaimedRow, type ClaimOutcome, type OutboxStatus } from '../outbox/outbox-repository';

/**
 * SQL for ris_handoff (0014_check_in.sql): one row per appointment and kind, queued in the
 * transaction of the change it reports, claimed with a lease by one worker, ending sent, or
 * failed and kept.
 */

export type HandoffKind = 'prepare_check_in' | 'check_in';

export interface RisHandoff {
  id: number;
  appointmentId: string;
  kind: HandoffKind;
  payload: Record<string, unknown>;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  /** ISO 8601: when the change it reports was accepted. */
  createdAt: string;
}

type Row = RisHandoff & Record<string, unknown>;

const COLUMNS = `id::int as id, appointment_id::text as "appointmentId", kind, payload, status, attempts, last_error as "lastError",
  ${isoTimestamp('next_attempt_at', '"nextAttemptAt"')}, ${isoTimestamp('created_at', '"createdAt"')}`;

export function createHandoffRepository(db: Queryable) {
  return {
    /** Queues a hand-off due now; false when the appointment already has one of this kind (nothing changes). */
    async enqueue(handoff: { appointmentId: string; kind: HandoffKind; payload: object }, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `insert into ris_handoff (appointment_id, kind, payload, next_attempt_at, created_at) values ($1::uuid, $2, $3::jsonb, $4, $4)
         on conflict (appointment_id, kind) do nothing returning id`,
        [handoff.appointmentId, handoff.kind, JSON.stringify(handoff.payload), now.toISOString()],
      );
      return rows.length === 1;
    },

    claimDue(now: Date, leaseUntil: Date, limit: number, tx: Queryable = db): Promise<RisHandoff[]> {
      return claimDueRows<Row>(tx, 'ris_handoff', COLUMNS, { now, leaseUntil, limit });
    },

    /** Records one claimed attempt's outcome (settleClaimedRow); false when the claim was lost. */
    settle(claim: { id: number; attempts: number }, outcome: ClaimOutcome, tx: Queryable = db): Promise<boolean> {
      return settleClaimedRow(tx, 'ris_handoff', claim, outcome);
    },

    async forAppointment(appointmentId: string, tx: Queryable = db): Promise<RisHandoff[]> {
      return tx.query<Row>(`select ${COLUMNS} from ris_handoff where appointment_id = $1::uuid order by id`, [appointmentId]);
    },

    async countPending(tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from ris_handoff where status in ('queued', 'sending')`,
      );
      return rows[0]?.count ?? 0;
    },

    /** Sent hand-offs are the check-in's record: kept (the purge of the outbox loop is not used). */
    deleteSentBefore: async (): Promise<number> => 0,
  };
}

export type HandoffRepository = ReturnType<typeof createHandoffRepository>;
