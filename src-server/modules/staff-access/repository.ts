import type { StaffRole } from '@contract/api/staff-access';
import { createAuditLogRepository, type AuditEntry } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL for staff sessions (0010_staff_sessions.sql). Instants are passed and read as ISO text in UTC. */

export type StaffPerson = {
  subject: string;
  username: string;
  displayName: string | null;
  organization: string | null;
  firstName: string | null;
  lastName: string | null;
  roles: StaffRole[];
  /** A referring doctor's provider number from the token (0023_referrer_reports.sql); null for others. */
  providerNumber: string | null;
};

export type StaffSessionRow = StaffPerson & {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
};

const COLUMNS = `id::text as id, subject, username, display_name as "displayName", organization,
  first_name as "firstName", last_name as "lastName", roles, provider_number as "providerNumber",
  ${isoTimestamp('created_at', '"createdAt"')}, ${isoTimestamp('last_seen_at', '"lastSeenAt"')}, ${isoTimestamp('expires_at', '"expiresAt"')}`;

export function createStaffAccessRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  return {
    async insertSession(
      session: { tokenSha256: string; person: StaffPerson; now: Date; expiresAt: Date },
      tx: Queryable = db,
    ): Promise<string> {
      const { person } = session;
      const rows = await tx.query<{ id: string }>(
        `insert into staff_session
           (token_sha256, subject, username, display_name, organization, first_name, last_name, roles, created_at, last_seen_at, expires_at,
            provider_number)
         values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $9, $10, $11)
         returning id::text as id`,
        [
          session.tokenSha256,
          person.subject,
          person.username,
          person.displayName,
          person.organization,
          person.firstName,
          person.lastName,
          JSON.stringify(person.roles),
          session.now.toISOString(),
          session.expiresAt.toISOString(),
          person.providerNumber,
        ],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[staff-access] session insert returned no id');
      return id;
    },

    async findSessionByTokenHash(tokenSha256: string, tx: Queryable = db): Promise<StaffSessionRow | null> {
      const rows = await tx.query<StaffSessionRow>(`select ${COLUMNS} from staff_session where token_sha256 = $1`, [tokenSha256]);
      return rows[0] ?? null;
    },

    async touchSession(id: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update staff_session set last_seen_at = $2 where id = $1::uuid`, [id, now.toISOString()]);
    },

    async deleteSessionByTokenHash(tokenSha256: string, tx: Queryable = db): Promise<StaffSessionRow | null> {
      const rows = await tx.query<StaffSessionRow>(`delete from staff_session where token_sha256 = $1 returning ${COLUMNS}`, [tokenSha256]);
      return rows[0] ?? null;
    },

    /** Sessions past their maximum, or idle since before `idleBefore`. */
    async deleteEndedSessions(now: Date, idleBefore: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ id: string }>(
        `delete from staff_session where expires_at <= $1 or last_seen_at <= $2 returning id::text as id`,
        [now.toISOString(), idleBefore.toISOString()],
      );
      return rows.length;
    },

    async audit(entry: AuditEntry, tx: Queryable = db): Promise<void> {
      await auditLog.record(entry, tx);
    },
  };
}

export type StaffAccessRepository = ReturnType<typeof createStaffAccessRepository>;
