import type { Queryable } from '../../db/connection';

/** A day's count of one kind for one subject (an HMAC of an address, an e-mail, a phone number). */
export interface DayCounter {
  kind: string;
  subject: string;
}

type CountRow = { kind: string; subject: string; count: number };

/** The booking limits' counters (table booking_limit_counter, booking-limits.ts): one row per kind, subject and day. */
export function createBookingLimitsRepository(db: Queryable) {
  return {
    /**
     * Counts one request on each counter of the day, in one statement, committed without waiting
     * for the disk (synchronous_commit off for this statement's own transaction only): a crash may
     * forget the last few counts, which only lets a client a few more requests, and the request
     * does not wait on a disk flush. Answers each counter's new count.
     */
    async count(counters: readonly DayCounter[], day: string, dayEnd: Date, tx: Queryable = db): Promise<CountRow[]> {
      return tx.query<CountRow>(
        `with quick as (select set_config('synchronous_commit', 'off', true) as setting)
         insert into booking_limit_counter as c (kind, subject, day, window_end, count)
         select kind, subject, $3::date, $4::timestamptz, 1 from unnest($1::text[], $2::text[]) as t(kind, subject), quick
         on conflict (kind, subject, day) do update set count = c.count + 1
         returning kind, subject, count`,
        [counters.map((counter) => counter.kind), counters.map((counter) => counter.subject), day, dayEnd.toISOString()],
      );
    },

    /** Takes a refused request off its counters again. */
    async uncount(counters: readonly DayCounter[], day: string, tx: Queryable = db): Promise<void> {
      await tx.query(
        `update booking_limit_counter set count = count - 1
          where day = $3::date and count > 0 and (kind, subject) in (select * from unnest($1::text[], $2::text[]))`,
        [counters.map((counter) => counter.kind), counters.map((counter) => counter.subject), day],
      );
    },

    /** Counts one on a single counter (inside the caller's transaction); its new count. */
    async countOne(counter: DayCounter, day: string, dayEnd: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `insert into booking_limit_counter as c (kind, subject, day, window_end, count) values ($1, $2, $3::date, $4::timestamptz, 1)
         on conflict (kind, subject, day) do update set count = c.count + 1
         returning count`,
        [counter.kind, counter.subject, day, dayEnd.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },

    /** Deletes the counts of days that have ended; answers how many. */
    async deleteEnded(now: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(`delete from booking_limit_counter where window_end <= $1 returning 1`, [now.toISOString()]);
      return rows.length;
    },
  };
}
