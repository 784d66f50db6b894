import type { CallbackWindow } from '@contract/api/callbacks';
import type { Queryable } from '../../db/connection';

/** A callback request row as the queue reads it. */
export type CallbackRow = {
  id: string;
  first_name: string;
  last_name: string;
  phone: string;
  windows: string[];
  reason: string;
  exam_name: string | null;
  received_at: Date | string;
  called_at: Date | string | null;
  called_by_name: string | null;
  note: string | null;
};

const COLUMNS = `id::text as id, first_name, last_name, phone, windows, reason, exam_name, received_at, called_at, called_by_name, note`;

/** One window's count of callback requests (callback-limits.ts). */
export interface LimitWindow {
  kind: string;
  subject: string;
  start: Date;
  end: Date;
}

export function createCallbackRepository(db: Queryable) {
  return {
    /**
     * Counts one request in each window (windows that have ended are forgotten first), in one
     * statement, so parallel requests cannot all slip under: each window's kind with its new count.
     */
    async countInWindows(windows: readonly LimitWindow[], now: Date, tx: Queryable = db): Promise<Array<{ kind: string; count: number }>> {
      await tx.query(`delete from callback_limit_counter where window_end <= $1`, [now.toISOString()]);
      return tx.query<{ kind: string; count: number }>(
        `insert into callback_limit_counter as c (kind, subject, window_start, window_end, count)
         select t.kind, t.subject, t.start, t.start_end, 1
           from unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) as t(kind, subject, start, start_end)
         on conflict (kind, subject, window_start) do update set count = c.count + 1
         returning kind, count`,
        [
          windows.map((window) => window.kind),
          windows.map((window) => window.subject),
          windows.map((window) => window.start.toISOString()),
          windows.map((window) => window.end.toISOString()),
        ],
      );
    },

    /** Takes a refused request off the counts of its windows again. */
    async uncountInWindows(windows: readonly LimitWindow[], tx: Queryable = db): Promise<void> {
      await tx.query(
        `update callback_limit_counter set count = count - 1
          where count > 0 and (kind, subject, window_start) in (select * from unnest($1::text[], $2::text[], $3::timestamptz[]))`,
        [
          windows.map((window) => window.kind),
          windows.map((window) => window.subject),
          windows.map((window) => window.start.toISOString()),
        ],
      );
    },

    /** The provider's call-centre address (booking_settings, 0033), or null when none is configured. */
    async callCentreEmail(tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ call_centre_email: string | null }>(`select call_centre_email from booking_settings where id = 1`);
      return rows[0]?.call_centre_email ?? null;
    },

    /** The exam's name for a slug of the catalogue, or null when no exam has it. */
    async examName(slug: string): Promise<string | null> {
      const rows = await db.query<{ name: string }>(`select name from exam where slug = $1`, [slug]);
      return rows[0]?.name ?? null;
    },

    async insert(
      request: {
        firstName: string;
        lastName: string;
        phone: string;
        windows: readonly CallbackWindow[];
        reason: string;
        examName: string | null;
        locale: string;
        receivedAt: Date;
      },
      tx: Queryable = db,
    ): Promise<string> {
      const rows = await tx.query<{ id: string }>(
        `insert into callback_request (first_name, last_name, phone, windows, reason, exam_name, locale, received_at)
         values ($1, $2, $3, array(select jsonb_array_elements_text($4::jsonb)), $5, $6, $7, $8)
         returning id::text as id`,
        // The windows go as JSON: the two drivers serialise JS arrays differently.
        [
          request.firstName,
          request.lastName,
          request.phone,
          JSON.stringify(request.windows),
          request.reason,
          request.examName,
          request.locale,
          request.receivedAt.toISOString(),
        ],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[callbacks] insert returned no id');
      return id;
    },

    /** Open requests oldest first (at most openCap), then the latest called ones (at most calledCap). */
    async queue(caps: { open: number; called: number }): Promise<{ rows: CallbackRow[]; openTotal: number }> {
      const open = await db.query<CallbackRow>(
        `select ${COLUMNS} from callback_request where called_at is null order by received_at, arrival limit ${String(caps.open)}`,
      );
      const called = await db.query<CallbackRow>(
        `select ${COLUMNS} from callback_request where called_at is not null order by called_at desc, arrival desc limit ${String(caps.called)}`,
      );
      const total = await db.query<{ count: number }>(`select count(*)::int as count from callback_request where called_at is null`);
      return { rows: [...open, ...called], openTotal: Number(total[0]?.count ?? 0) };
    },

    /**
     * Marks an open request called, in one statement (two staff members clicking at once: one
     * wins). Answers 'called', 'already' (someone else did), or null when no request has the id.
     */
    async markCalled(
      id: string,
      call: { at: Date; byRef: string; byName: string; note: string | null },
    ): Promise<'called' | 'already' | null> {
      const rows = await db.query<{ was_open: boolean }>(
        `with target as (select id, called_at is null as was_open from callback_request where id = $1::uuid for update),
              marked as (
                update callback_request c
                   set called_at = $2, called_by_ref = $3, called_by_name = $4, note = $5
                  from target where c.id = target.id and target.was_open
                returning c.id
              )
         select was_open from target`,
        [id, call.at.toISOString(), call.byRef, call.byName, call.note],
      );
      const row = rows[0];
      if (row === undefined) return null;
      return row.was_open ? 'called' : 'already';
    },
  };
}

export type CallbackRepository = ReturnType<typeof createCallbackRepository>;
