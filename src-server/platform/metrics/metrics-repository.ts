import type { Queryable } from '../../db/connection';

/** SQL for /metrics (platform/metrics): how the outboxes stand, read at scrape time. */

/** The queues the outbox loop works: mail, SMS (outbox_sms) and the RIS check-in hand-offs (ris_handoff). */
export type QueueChannel = 'mail' | 'sms' | 'ris';

export interface QueueCounts {
  channel: QueueChannel;
  /** Waiting to be sent or being sent (queued, sending). */
  pending: number;
  /** Given up after the last attempt or a permanent refusal, and kept (failed). */
  failed: number;
}

export function createMetricsRepository(db: Queryable) {
  return {
    /** Pending and failed items per queue, in one statement (the pending counts use each table's partial "due" index). */
    async queueCounts(tx: Queryable = db): Promise<QueueCounts[]> {
      const counts = (table: string): string =>
        `(select count(*)::int from ${table} where status in ('queued', 'sending')) as pending,
         (select count(*)::int from ${table} where status = 'failed') as failed`;
      return tx.query<QueueCounts & Record<string, unknown>>(
        `select 'mail' as channel, ${counts('outbox_mail')}
         union all select 'sms', ${counts('outbox_sms')}
         union all select 'ris', ${counts('ris_handoff')}`,
      );
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
