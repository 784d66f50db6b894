import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL only (docs/server.md#module-shape): attachment rows, their settings, and the documents a booking's exams ask for. */

export type OwnerType = 'APPOINTMENT' | 'BOOKING_REQUEST' | 'TEMPORARY';
export interface Owner {
  type: OwnerType;
  key: string;
}

export type AttachmentRow = {
  id: string;
  owner_type: OwnerType;
  owner_key: string;
  document_type_id: string | null;
  document_type_code: string | null;
  document_type_title: string | null;
  document_type_description: string | null;
  storage_key: string;
  file_name: string;
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png';
  size_bytes: string;
  sha256: string;
  width: number | null;
  height: number | null;
  scan_status: 'CLEAN' | 'QUARANTINED' | 'INFECTED';
  referral_date: string | null;
  referring_doctor: string | null;
  referral_warning: 'FUTURE' | 'EXPIRED' | null;
  warning_overridden_by: string | null;
  created_at: string;
};

export type AttachmentSettingsRow = {
  max_file_bytes: number;
  max_files_per_booking: number;
  max_bytes_per_booking: string;
  allowed_content_types: string[];
  referral_validity_months: number;
  /** Temporary-key uploads (upload-budget.ts): per client address and window, and all together. */
  temporary_bytes_per_client: string;
  temporary_uploads_before_captcha: number;
  temporary_budget_window_hours: number;
  temporary_bytes_total: string;
};

export type DocumentTypeRow = { id: string; code: string; title: string; description: string };

export interface NewAttachment {
  /** Kept when a stored referral moves in (its links stay valid); else the database makes one. */
  id?: string;
  owner: Owner;
  documentTypeId: string | null;
  storageKey: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  scanStatus: 'CLEAN' | 'QUARANTINED';
  referralDate: string | null;
  referringDoctor: string | null;
  referralWarning: 'FUTURE' | 'EXPIRED' | null;
  now: Date;
}

const SELECT = `
  select a.id::text as id, a.owner_type, a.owner_key, a.document_type_id::text as document_type_id,
         d.code as document_type_code, d.title as document_type_title, d.description as document_type_description,
         a.storage_key, a.file_name, a.content_type, a.size_bytes::text as size_bytes, a.sha256, a.width, a.height,
         a.scan_status, a.referral_date::text as referral_date, a.referring_doctor, a.referral_warning,
         a.warning_overridden_by, ${isoTimestamp('a.created_at', 'created_at')}
    from attachment a
    left join document_type d on d.id = a.document_type_id`;

export function createAttachmentsRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  return {
    /** False on a database without the attachments schema (some tests use one). */
    async schemaReady(tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ ready: boolean }>(`select to_regclass('attachment') is not null as ready`);
      return rows[0]?.ready === true;
    },

    async settings(tx: Queryable = db): Promise<AttachmentSettingsRow> {
      const rows = await tx.query<AttachmentSettingsRow>(
        `select max_file_bytes, max_files_per_booking, max_bytes_per_booking::text as max_bytes_per_booking,
                allowed_content_types, referral_validity_months,
                temporary_bytes_per_client::text as temporary_bytes_per_client, temporary_uploads_before_captcha,
                temporary_budget_window_hours, temporary_bytes_total::text as temporary_bytes_total
           from attachment_settings where id`,
      );
      const row = rows[0];
      if (row === undefined) throw new Error('[attachments] attachment_settings has no row');
      return row;
    },

    /** The owner's attachments, newest first. */
    async list(owner: Owner, tx: Queryable = db): Promise<AttachmentRow[]> {
      return tx.query<AttachmentRow>(`${SELECT} where a.owner_type = $1 and a.owner_key = $2 order by a.created_at desc, a.id`, [
        owner.type,
        owner.key,
      ]);
    },

    /** One attachment of exactly this owner (another booking's id finds nothing). */
    async one(owner: Owner, id: string, tx: Queryable = db): Promise<AttachmentRow | null> {
      const rows = await tx.query<AttachmentRow>(`${SELECT} where a.owner_type = $1 and a.owner_key = $2 and a.id = $3::uuid`, [
        owner.type,
        owner.key,
        id,
      ]);
      return rows[0] ?? null;
    },

    /** A booking's or booking request's document by id alone, for a machine reader (FHIR); temporary keys' are nobody's yet. */
    async servable(id: string, tx: Queryable = db): Promise<AttachmentRow | null> {
      const rows = await tx.query<AttachmentRow>(
        `${SELECT} where a.id = $1::uuid and a.owner_type in ('APPOINTMENT', 'BOOKING_REQUEST') and a.scan_status = 'CLEAN'`,
        [id],
      );
      return rows[0] ?? null;
    },

    /**
     * Serialises uploads of one booking so the count and byte quota cannot be overrun by
     * concurrent requests: a transaction-scoped advisory lock on the owner.
     */
    async lockOwner(owner: Owner, tx: Queryable): Promise<void> {
      await tx.query(`select pg_advisory_xact_lock(hashtextextended($1, 12))`, [`${owner.type}:${owner.key}`]);
    },

    async usage(owner: Owner, tx: Queryable = db): Promise<{ files: number; bytes: number }> {
      const rows = await tx.query<{ files: number; bytes: string }>(
        `select count(*)::int as files, coalesce(sum(size_bytes), 0)::text as bytes
           from attachment where owner_type = $1 and owner_key = $2`,
        [owner.type, owner.key],
      );
      return { files: rows[0]?.files ?? 0, bytes: Number(rows[0]?.bytes ?? 0) };
    },

    async insert(row: NewAttachment, tx: Queryable = db): Promise<string> {
      const rows = await tx.query<{ id: string }>(
        `insert into attachment (id, owner_type, owner_key, document_type_id, storage_key, file_name, content_type, size_bytes, sha256,
                                 width, height, scan_status, referral_date, referring_doctor, referral_warning, created_at, updated_at)
         values (coalesce($16::uuid, gen_random_uuid()), $1, $2, $3::uuid, $4, $5, $6, $7, $8, $9, $10, $11, $12::date, $13, $14,
                 $15::timestamptz, $15::timestamptz)
         returning id::text as id`,
        [
          row.owner.type,
          row.owner.key,
          row.documentTypeId,
          row.storageKey,
          row.fileName,
          row.contentType,
          row.size,
          row.sha256,
          row.width,
          row.height,
          row.scanStatus,
          row.referralDate,
          row.referringDoctor,
          row.referralWarning,
          row.now.toISOString(),
          row.id ?? null,
        ],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[attachments] insert returned no id');
      return id;
    },

    /** Replaces the file of one attachment (same id); answers the storage key it had, to delete after commit. */
    async replaceFile(
      owner: Owner,
      id: string,
      file: Omit<NewAttachment, 'owner' | 'now'>,
      now: Date,
      tx: Queryable = db,
    ): Promise<string | null> {
      const old = await tx.query<{ storage_key: string }>(
        `select storage_key from attachment where owner_type = $1 and owner_key = $2 and id = $3::uuid for update`,
        [owner.type, owner.key, id],
      );
      const previous = old[0]?.storage_key;
      if (previous === undefined) return null;
      await tx.query(
        `update attachment set document_type_id = $4::uuid, storage_key = $5, file_name = $6, content_type = $7, size_bytes = $8,
                sha256 = $9, width = $10, height = $11, scan_status = $12, referral_date = $13::date, referring_doctor = $14,
                referral_warning = $15, warning_overridden_by = null, imported_at = null, updated_at = $16::timestamptz
          where owner_type = $1 and owner_key = $2 and id = $3::uuid`,
        [
          owner.type,
          owner.key,
          id,
          file.documentTypeId,
          file.storageKey,
          file.fileName,
          file.contentType,
          file.size,
          file.sha256,
          file.width,
          file.height,
          file.scanStatus,
          file.referralDate,
          file.referringDoctor,
          file.referralWarning,
          now.toISOString(),
        ],
      );
      return previous;
    },

    /** Deletes one attachment row; answers its storage key, or null when there was none. */
    /** Referrals an earlier version kept in the database (legacy-referrals.ts), oldest first, but those in `except`. */
    async legacyReferrals(
      except: readonly string[],
      limit: number,
      tx: Queryable = db,
    ): Promise<Array<{ id: string; booking_key: string; file_name: string; content: Uint8Array; created_at: string }>> {
      return tx.query(
        `select id::text as id, booking_key, file_name, content, ${isoTimestamp('created_at', 'created_at')} from booking_request_referral
          where not (id = any($1::uuid[])) order by created_at, id limit $2`,
        [except, limit],
      );
    },

    async deleteLegacyReferral(id: string, tx: Queryable = db): Promise<void> {
      await tx.query('delete from booking_request_referral where id = $1::uuid', [id]);
    },

    /** Deletes the rows of expired temporary keys' documents; their files become orphans the sweeper removes. */
    async deleteTemporary(keys: readonly string[], tx: Queryable = db): Promise<number> {
      if (keys.length === 0) return 0;
      const rows = await tx.query<{ id: string }>(
        `delete from attachment where owner_type = 'TEMPORARY' and owner_key = any($1::text[]) returning id::text as id`,
        [keys],
      );
      return rows.length;
    },

    /** Marks a document's referral warning overridden by a staff member; null when there is no such warning here. */
    async overrideWarning(owner: Owner, id: string, username: string, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ id: string }>(
        `update attachment set warning_overridden_by = $4 where owner_type = $1 and owner_key = $2 and id = $3::uuid and referral_warning is not null
         returning id::text as id`,
        [owner.type, owner.key, id, username.slice(0, 200)],
      );
      return rows[0]?.id ?? null;
    },

    async delete(owner: Owner, id: string, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ storage_key: string }>(
        `delete from attachment where owner_type = $1 and owner_key = $2 and id = $3::uuid returning storage_key`,
        [owner.type, owner.key, id],
      );
      return rows[0]?.storage_key ?? null;
    },

    async markImported(owner: Owner, now: Date, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ id: string }>(
        `update attachment set imported_at = $3::timestamptz where owner_type = $1 and owner_key = $2 and imported_at is null
         returning id::text as id`,
        [owner.type, owner.key, now.toISOString()],
      );
      return rows.map((row) => row.id);
    },

    async setScanStatus(id: string, status: 'CLEAN' | 'INFECTED', tx: Queryable = db): Promise<void> {
      await tx.query(`update attachment set scan_status = $2 where id = $1::uuid`, [id, status]);
    },

    async quarantined(limit: number, tx: Queryable = db): Promise<{ id: string; storage_key: string }[]> {
      return tx.query(`select id::text as id, storage_key from attachment where scan_status = 'QUARANTINED' order by created_at limit $1`, [
        limit,
      ]);
    },

    /** Moves every attachment of one owner to another (a booking made, or a re-keyed temporary key). */
    async moveOwner(from: Owner, to: Owner, now: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ id: string }>(
        `update attachment set owner_type = $3, owner_key = $4, updated_at = $5::timestamptz
          where owner_type = $1 and owner_key = $2 returning id::text as id`,
        [from.type, from.key, to.type, to.key, now.toISOString()],
      );
      return rows.length;
    },

    /**
     * Which of these storage keys a row names (the orphan sweeper keeps those). The file storage
     * is shared: attachments and the results' report PDFs (result_report.pdf_key) both live there,
     * so a new table that keeps files must be named here too.
     */
    async referencedKeys(keys: string[], tx: Queryable = db): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await tx.query<{ storage_key: string }>(
        `select storage_key from attachment where storage_key = any($1::text[])
         union select pdf_key from result_report where pdf_key = any($1::text[])`,
        [keys],
      );
      return new Set(rows.map((row) => row.storage_key));
    },

    async documentType(id: string, tx: Queryable = db): Promise<DocumentTypeRow | null> {
      const rows = await tx.query<DocumentTypeRow>(
        `select id::text as id, code, title, description from document_type where id = $1::uuid`,
        [id],
      );
      return rows[0] ?? null;
    },

    async documentTypeByCode(code: string, tx: Queryable = db): Promise<DocumentTypeRow | null> {
      const rows = await tx.query<DocumentTypeRow>(`select id::text as id, code, title, description from document_type where code = $1`, [
        code,
      ]);
      return rows[0] ?? null;
    },

    /** The exam slugs of a booking: its live appointments, or its booking-request rows. */
    async examSlugsOf(owner: Owner, tx: Queryable = db): Promise<string[] | null> {
      const sql =
        owner.type === 'APPOINTMENT'
          ? `select e.slug from appointment a join exam e on e.id = a.exam_id where a.booking_key = $1 and a.status <> 'HELD' order by e.slug`
          : `select e.slug from booking_request r join exam e on e.id = r.exam_id where r.booking_key = $1 order by e.slug`;
      const rows = await tx.query<{ slug: string }>(sql, [owner.key]);
      return rows.length === 0 ? null : [...new Set(rows.map((row) => row.slug))];
    },

    /** The document types these exams ask for (exam_document_type), each with the exams asking. */
    async examDocumentTypes(examSlugs: string[], tx: Queryable = db): Promise<(DocumentTypeRow & { exam_slugs: string[] })[]> {
      if (examSlugs.length === 0) return [];
      return tx.query(
        `select d.id::text as id, d.code, d.title, d.description, array_agg(e.slug order by e.slug) as exam_slugs
           from exam_document_type x join exam e on e.id = x.exam_id join document_type d on d.id = x.document_type_id
          where e.slug = any($1::text[])
          group by d.id, d.code, d.title, d.description order by d.code`,
        [examSlugs],
      );
    },

    /** The document a questionnaire outcome asked this booking for (booking_outcome), or null. */
    async outcomeDocumentType(owner: Owner, tx: Queryable = db): Promise<DocumentTypeRow | null> {
      if (owner.type === 'TEMPORARY') return null;
      const rows = await tx.query<DocumentTypeRow>(
        `select d.id::text as id, d.code, d.title, d.description from booking_outcome o join document_type d on d.id = o.document_type_id
          where o.owner_type = $1 and o.owner_key = $2`,
        [owner.type, owner.key],
      );
      return rows[0] ?? null;
    },

    /** Whether a temporary questionnaire booking key was issued and still takes answers. */
    async liveTemporaryKey(key: string, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ ok: boolean }>(
        `select true as ok from questionnaire_booking_key where booking_key = $1 and expires_at > $2::timestamptz and retired_at is null`,
        [key, now.toISOString()],
      );
      return rows.length > 0;
    },

    /** The time zone "today" is counted in for a referral's date: the booking's clinic, else the first clinic. */
    async timeZoneOf(owner: Owner, tx: Queryable = db): Promise<string> {
      const rows = await tx.query<{ time_zone: string | null }>(
        `select coalesce(
           (select c.time_zone from appointment a join clinic c on c.id = a.clinic_id where a.booking_key = $1 limit 1),
           (select c.time_zone from booking_request r join clinic c on c.id = r.clinic_id where r.booking_key = $1 limit 1),
           (select time_zone from clinic order by name limit 1)) as time_zone`,
        [owner.key],
      );
      return rows[0]?.time_zone ?? 'UTC';
    },

    async audit(
      entry: { actor: string; action: string; subjectId: string; details: Record<string, unknown>; now: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await auditLog.record({ ...entry, subjectType: 'attachment' }, tx);
    },
  };
}

export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
