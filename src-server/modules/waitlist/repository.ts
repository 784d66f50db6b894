import type { WaitlistClinicChoice } from '@contract/api/waitlist';
import type { Queryable } from '../../db/connection';

/** SQL only (docs/server.md#module-shape): the waiting list, the freed times and the offers (migration 0045). */

export type WaitlistSettings = { offerMinutes: number; batchSize: number };

export type FreedTimeRow = {
  id: string;
  clinicId: string;
  clinicSlug: string;
  clinicName: string;
  timeZone: string;
  startsAt: string;
  rounds: number;
};

/** A waiting booking at the freed time's clinic, starting later: what the fit rules (fit.ts) read. */
export type CandidateRow = {
  bookingKey: string;
  startsAt: string;
  examSlugs: string[];
  /** The longest fasting of its exams (hours), and of its medication stops; null when none. */
  fastingHours: number | null;
  medicationStopHours: number | null;
  /** The newest referral date uploaded with the booking (YYYY-MM-DD), or null. */
  referralDate: string | null;
  referralValidityMonths: number;
};

export type OfferRow = {
  id: string;
  freedTimeId: string;
  bookingKey: string;
  holdId: string;
  clinicSlug: string;
  clinicName: string;
  timeZone: string;
  startsAt: string;
  examSlugs: string[];
  expiresAt: string;
  outcome: 'offered' | 'accepted' | 'taken' | 'declined' | 'expired';
};

const iso = (column: string, alias: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "${alias}"`;

/** Statuses of a booking that may still move to an earlier time. */
const MOVABLE = `('BOOKED', 'CONFIRMED')`;

const OFFER_SELECT = `select o.id::text as id, o.freed_time_id::text as "freedTimeId", o.booking_key as "bookingKey", o.hold_id as "holdId",
         c.slug as "clinicSlug", c.name as "clinicName", c.time_zone as "timeZone", ${iso('o.starts_at', 'startsAt')},
         o.exam_slugs as "examSlugs", ${iso('o.expires_at', 'expiresAt')}, o.outcome
    from waitlist_offer o join clinic c on c.id = o.clinic_id`;

export function createWaitlistRepository(db: Queryable) {
  return {
    async settings(tx: Queryable = db): Promise<WaitlistSettings> {
      const [row] = await tx.query<WaitlistSettings>(
        `select offer_minutes as "offerMinutes", batch_size as "batchSize" from waitlist_settings where id = 1`,
      );
      if (row === undefined) throw new Error('waitlist_settings has no row');
      return row;
    },

    async entry(
      bookingKey: string,
      tx: Queryable = db,
    ): Promise<{ status: string; clinics: WaitlistClinicChoice; createdAt: string } | null> {
      const [row] = await tx.query<{ status: string; clinics: WaitlistClinicChoice; createdAt: string }>(
        `select status, clinics, ${iso('created_at', 'createdAt')} from waitlist_entry where booking_key = $1`,
        [bookingKey],
      );
      return row ?? null;
    },

    /** Waits (again) from now, at `clinics`; a booking already waiting keeps its place in the order. */
    async join(bookingKey: string, clinics: WaitlistClinicChoice, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(
        `insert into waitlist_entry (booking_key, status, clinics, created_at, updated_at) values ($1, 'waiting', $3, $2, $2)
         on conflict (booking_key) do update set status = 'waiting', clinics = $3, updated_at = $2,
           created_at = case when waitlist_entry.status = 'waiting' then waitlist_entry.created_at else $2 end`,
        [bookingKey, now.toISOString(), clinics],
      );
    },

    /** The booking's clinic and region names (to word the choice), or nulls. */
    async placeOf(bookingKey: string, tx: Queryable = db): Promise<{ clinicName: string | null; regionName: string | null }> {
      const [row] = await tx.query<{ clinicName: string; regionName: string }>(
        `select c.name as "clinicName", r.name as "regionName"
           from appointment a join clinic c on c.id = a.clinic_id join region r on r.id = c.region_id
          where a.booking_key = $1 order by lower(a.during) limit 1`,
        [bookingKey],
      );
      return { clinicName: row?.clinicName ?? null, regionName: row?.regionName ?? null };
    },

    async setStatus(bookingKey: string, status: 'moved' | 'left', now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update waitlist_entry set status = $2, updated_at = $3 where booking_key = $1 and status = 'waiting'`, [
        bookingKey,
        status,
        now.toISOString(),
      ]);
    },

    /** Freed times still to offer (open, no offer of theirs open, none being accepted), oldest first. */
    async openFreedTimes(limit: number, tx: Queryable = db): Promise<FreedTimeRow[]> {
      return tx.query<FreedTimeRow>(
        `select f.id::text as id, c.id::text as "clinicId", c.slug as "clinicSlug", c.name as "clinicName", c.time_zone as "timeZone",
                ${iso('f.starts_at', 'startsAt')}, f.rounds
           from freed_time f join clinic c on c.id = f.clinic_id
          where f.closed_at is null and f.taken_by is null
            and not exists (select 1 from waitlist_offer o where o.freed_time_id = f.id and o.outcome = 'offered')
          order by f.id limit $1`,
        [limit],
      );
    },

    async closeFreedTime(id: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update freed_time set closed_at = $2 where id = $1`, [id, now.toISOString()]);
    },

    /** Starts the next round of a freed time: null when another sweep (another server) started it first. */
    async claimRound(freed: Pick<FreedTimeRow, 'id' | 'rounds'>, tx: Queryable = db): Promise<number | null> {
      const [row] = await tx.query<{ rounds: number }>(
        `update freed_time set rounds = rounds + 1 where id = $1 and rounds = $2 and closed_at is null returning rounds`,
        [freed.id, freed.rounds],
      );
      return row?.rounds ?? null;
    },

    /** The holds of a freed time's earlier rounds (released before the next round holds it again). */
    async holdsOf(freedTimeId: string, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ hold_id: string }>(
        `select distinct hold_id from waitlist_offer where freed_time_id = $1 and outcome in ('declined', 'expired')`,
        [freedTimeId],
      );
      return rows.map((row) => row.hold_id);
    },

    /**
     * Waiting bookings the freed time may suit, in the order they joined: their live appointments
     * are at its clinic (or in its region, when they chose so), all start later, and none was
     * offered this time before.
     */
    async candidates(freed: FreedTimeRow, limit: number, tx: Queryable = db): Promise<CandidateRow[]> {
      return tx.query<CandidateRow>(
        `with live as (
           select a.booking_key, min(lower(a.during)) as starts_at, array_agg(e.slug order by lower(a.during)) as exam_slugs,
                  max(e.fasting_hours)::int as fasting_hours, max(e.medication_stop_hours)::int as medication_stop_hours,
                  -- Its own clinic, or (with the region chosen) any clinic of its region.
                  bool_and(a.clinic_id = $1::uuid or (w.clinics = 'region' and c.region_id = (select region_id from clinic where id = $1::uuid)))
                    as at_clinic
             from waitlist_entry w join appointment a on a.booking_key = w.booking_key join exam e on e.id = a.exam_id
                  join clinic c on c.id = a.clinic_id
            where w.status = 'waiting' and a.status in ${MOVABLE}
            group by a.booking_key)
         select l.booking_key as "bookingKey", ${iso('l.starts_at', 'startsAt')}, l.exam_slugs as "examSlugs",
                l.fasting_hours as "fastingHours", l.medication_stop_hours as "medicationStopHours",
                (select max(t.referral_date)::text from attachment t
                  where t.owner_type = 'APPOINTMENT' and t.owner_key = l.booking_key) as "referralDate",
                (select referral_validity_months from attachment_settings) as "referralValidityMonths"
           from live l join waitlist_entry w on w.booking_key = l.booking_key
          where l.at_clinic and l.starts_at > $2::timestamptz
            and not exists (select 1 from waitlist_offer o where o.freed_time_id = $3 and o.booking_key = l.booking_key)
          order by w.created_at, w.booking_key
          limit $4`,
        [freed.clinicId, freed.startsAt, freed.id, limit],
      );
    },

    async insertOffer(
      offer: {
        id: string;
        freedTimeId: string;
        bookingKey: string;
        round: number;
        holdId: string;
        clinicId: string;
        startsAt: string;
        examSlugs: readonly string[];
        now: Date;
        expiresAt: string;
      },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into waitlist_offer (id, freed_time_id, booking_key, round, hold_id, clinic_id, starts_at, exam_slugs, offered_at, expires_at)
         values ($1::uuid, $2, $3, $4, $5, $6::uuid, $7, $8::text[], $9, $10)`,
        [
          offer.id,
          offer.freedTimeId,
          offer.bookingKey,
          offer.round,
          offer.holdId,
          offer.clinicId,
          offer.startsAt,
          offer.examSlugs,
          offer.now.toISOString(),
          offer.expiresAt,
        ],
      );
    },

    async offer(id: string, tx: Queryable = db): Promise<OfferRow | null> {
      const [row] = await tx.query<OfferRow>(`${OFFER_SELECT} where o.id = $1::uuid`, [id]);
      return row ?? null;
    },

    /** The other open offers of the same freed time. */
    async openOffersOf(freedTimeId: string, tx: Queryable = db): Promise<OfferRow[]> {
      return tx.query<OfferRow>(`${OFFER_SELECT} where o.freed_time_id = $1 and o.outcome = 'offered'`, [freedTimeId]);
    },

    async answer(id: string, outcome: OfferRow['outcome'], now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update waitlist_offer set outcome = $2, answered_at = $3 where id = $1::uuid and outcome = 'offered' returning 1`,
        [id, outcome, now.toISOString()],
      );
      return rows.length === 1;
    },

    /** Offers whose time ran out without an answer become expired; their freed times are offered again. */
    async expireOffers(now: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(
        `update waitlist_offer set outcome = 'expired', answered_at = $1 where outcome = 'offered' and expires_at <= $1 returning 1`,
        [now.toISOString()],
      );
      return rows.length;
    },

    /** Claims the freed time for one accepting offer: false when another offer is being accepted or took it. */
    async claim(freedTimeId: string, offerId: string, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update freed_time set taken_by = $2::uuid where id = $1 and taken_by is null and closed_at is null returning 1`,
        [freedTimeId, offerId],
      );
      return rows.length === 1;
    },

    async unclaim(freedTimeId: string, offerId: string, tx: Queryable = db): Promise<void> {
      await tx.query(`update freed_time set taken_by = null where id = $1 and taken_by = $2::uuid`, [freedTimeId, offerId]);
    },
  };
}

export type WaitlistRepository = ReturnType<typeof createWaitlistRepository>;
