import type { Queryable } from './connection';

/**
 * The audit log every module writes to: security-relevant events, never personal data in
 * details. Without `now` the database's clock stamps the entry.
 */

export interface AuditEntry {
  actor: string;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  details: Record<string, unknown>;
  now?: Date;
}

/** The audit row of a refused link credential (an imsec): there is nobody to name, only why it was refused. */
export function linkRefusedEntry(action: string, reason: string, now: Date): AuditEntry {
  return { actor: 'anonymous', action, subjectType: null, subjectId: null, details: { reason }, now };
}

export function createAuditLogRepository(db: Queryable) {
  return {
    async record(entry: AuditEntry, tx: Queryable = db): Promise<void> {
      await tx.query(
        `insert into audit_log (occurred_at, actor, action, subject_type, subject_id, details)
         values (coalesce($1::timestamptz, now()), $2, $3, $4, $5, $6::jsonb)`,
        [entry.now?.toISOString() ?? null, entry.actor, entry.action, entry.subjectType, entry.subjectId, JSON.stringify(entry.details)],
      );
    },
  };
}

export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
