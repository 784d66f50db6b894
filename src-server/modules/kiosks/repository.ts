import { KIOSK_LOOKAHEAD_MINUTES, type KioskHeartbeat } from '@contract/api/kiosks';
import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL for kiosks, their enrollment codes and identity attempts (0015_kiosks.sql). */

/** Identity checks counted in the window: this kiosk's and this person's, with the oldest of each (ISO). */
export interface IdentityAttempts extends Record<string, unknown> {
  kiosk: number;
  person: number;
  kioskOldest: string | null;
  personOldest: string | null;
}

export interface KioskRow extends Record<string, unknown> {
  id: string;
  name: string;
  clinic_id: string | null;
  clinic_slug: string | null;
  clinic_name: string | null;
  token_sha256: string | null;
  enrolled_at: string | null;
  revoked_at: string | null;
  last_seen_at: string | null;
  created_at: string;
  last_heartbeat_at: string | null;
  app_version: string | null;
  uptime_seconds: number | null;
  last_crash_at: string | null;
  last_crash_reason: string | null;
  last_patient_activity_at: string | null;
  last_offline_at: string | null;
}

export interface IdentityMatchRow extends Record<string, unknown> {
  id: string;
  booking_key: string;
  patient_id: string;
  status: string;
  starts_at: string;
  exam_check_in_enabled: boolean;
}

const KIOSK_COLUMNS = `k.id::text as id, k.name, k.clinic_id::text as clinic_id, c.slug as clinic_slug, c.name as clinic_name, k.token_sha256,
  ${isoTimestamp('k.enrolled_at', 'enrolled_at')}, ${isoTimestamp('k.revoked_at', 'revoked_at')},
  ${isoTimestamp('k.last_seen_at', 'last_seen_at')}, ${isoTimestamp('k.created_at', 'created_at')},
  ${isoTimestamp('k.last_heartbeat_at', 'last_heartbeat_at')}, k.app_version, k.uptime_seconds,
  ${isoTimestamp('k.last_crash_at', 'last_crash_at')}, k.last_crash_reason,
  ${isoTimestamp('k.last_patient_activity_at', 'last_patient_activity_at')}, ${isoTimestamp('k.last_offline_at', 'last_offline_at')}`;
const FROM_KIOSK = `from kiosk k left join clinic c on c.id = k.clinic_id`;

/** Appointments with what the identity check needs; the caller adds who ($1, $2), the clinic ($3) and now ($4). */
const TODAYS_APPOINTMENTS = `select a.id::text as id, a.booking_key, a.patient_id::text as patient_id, a.status,
       ${isoTimestamp('lower(a.during)', 'starts_at')}, e.check_in_enabled as exam_check_in_enabled
  from appointment a
  join patient p on p.id = a.patient_id
  join clinic c on c.id = a.clinic_id
  join exam e on e.id = a.exam_id`;
/**
 * Can be or was checked in, today in the clinic's zone or starting within KIOSK_LOOKAHEAD_MINUTES,
 * at the kiosk's clinic when it has one; in time order.
 */
const TODAY_AT_CLINIC = `a.status in ('BOOKED', 'CONFIRMED', 'CHECKED_IN')
  and ((lower(a.during) at time zone c.time_zone)::date = ($4::timestamptz at time zone c.time_zone)::date
       or lower(a.during) between $4::timestamptz and $4::timestamptz + interval '${KIOSK_LOOKAHEAD_MINUTES} minutes')
  and ($3::uuid is null or a.clinic_id = $3::uuid)
  order by lower(a.during)`;

export function createKiosksRepository(db: Queryable) {
  return {
    async clinicId(slug: string, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ id: string }>(`select id::text as id from clinic where slug = $1`, [slug]);
      return rows[0]?.id ?? null;
    },

    async insert(kiosk: { name: string; clinicId: string | null; createdBy: string; now: Date }, tx: Queryable = db): Promise<string> {
      const rows = await tx.query<{ id: string }>(
        `insert into kiosk (name, clinic_id, created_at, created_by) values ($1, $2::uuid, $3, $4) returning id::text as id`,
        [kiosk.name, kiosk.clinicId, kiosk.now.toISOString(), kiosk.createdBy],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[kiosks] insert returned no id');
      return id;
    },

    async list(tx: Queryable = db): Promise<KioskRow[]> {
      return tx.query<KioskRow>(`select ${KIOSK_COLUMNS} ${FROM_KIOSK} order by c.slug nulls first, k.name, k.created_at`);
    },

    async byId(id: string, tx: Queryable = db): Promise<KioskRow | null> {
      const rows = await tx.query<KioskRow>(`select ${KIOSK_COLUMNS} ${FROM_KIOSK} where k.id = $1::uuid`, [id]);
      return rows[0] ?? null;
    },

    async byToken(tokenSha256: string, tx: Queryable = db): Promise<KioskRow | null> {
      const rows = await tx.query<KioskRow>(`select ${KIOSK_COLUMNS} ${FROM_KIOSK} where k.token_sha256 = $1 and k.revoked_at is null`, [
        tokenSha256,
      ]);
      return rows[0] ?? null;
    },

    /** A new code for the kiosk; earlier unused ones stop working. */
    async replaceCode(kioskId: string, codeSha256: string, expiresAt: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`delete from kiosk_enrollment_code where kiosk_id = $1::uuid and used_at is null`, [kioskId]);
      await tx.query(`insert into kiosk_enrollment_code (code_sha256, kiosk_id, expires_at) values ($1, $2::uuid, $3)`, [
        codeSha256,
        kioskId,
        expiresAt.toISOString(),
      ]);
    },

    /** Uses a live code once (in the caller's transaction): the kiosk it enrolls, or null. */
    async useCode(codeSha256: string, now: Date, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ kiosk_id: string }>(
        `update kiosk_enrollment_code set used_at = $2
          where code_sha256 = $1 and used_at is null and expires_at > $2
          returning kiosk_id::text as kiosk_id`,
        [codeSha256, now.toISOString()],
      );
      return rows[0]?.kiosk_id ?? null;
    },

    async enroll(kioskId: string, tokenSha256: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update kiosk set token_sha256 = $2, enrolled_at = $3, revoked_at = null, last_seen_at = $3 where id = $1::uuid`, [
        kioskId,
        tokenSha256,
        now.toISOString(),
      ]);
    },

    async revoke(kioskId: string, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(`update kiosk set token_sha256 = null, revoked_at = $2 where id = $1::uuid returning id`, [
        kioskId,
        now.toISOString(),
      ]);
      await tx.query(`delete from kiosk_enrollment_code where kiosk_id = $1::uuid and used_at is null`, [kioskId]);
      return rows.length === 1;
    },

    /** Seen now, written at most once a minute. */
    async touch(kioskId: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(
        `update kiosk set last_seen_at = $2 where id = $1::uuid and (last_seen_at is null or last_seen_at < $2::timestamptz - interval '1 minute')`,
        [kioskId, now.toISOString()],
      );
    },

    /** Stores a heartbeat (KioskHeartbeatSchema, already checked); also counts as seen. */
    async heartbeat(kioskId: string, beat: KioskHeartbeat, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(
        `update kiosk set last_heartbeat_at = $2, last_seen_at = $2, app_version = $3, uptime_seconds = $4, last_crash_at = $5,
                          last_crash_reason = $6, last_patient_activity_at = $7, last_offline_at = $8
          where id = $1::uuid`,
        [
          kioskId,
          now.toISOString(),
          beat.appVersion,
          beat.uptimeSeconds,
          beat.lastCrash?.at ?? null,
          beat.lastCrash?.reason ?? null,
          beat.lastPatientActivityAt,
          beat.lastOfflineAt,
        ],
      );
    },

    /** Wrong enrollment codes from this address since `since`; older ones of the address go on the way. */
    /** Wrong codes from this address since `since`, and the oldest of them. */
    async enrollmentFailuresSince(ip: string, since: Date, tx: Queryable = db): Promise<{ count: number; oldest: string | null }> {
      await tx.query(`delete from kiosk_enrollment_failure where ip = $1 and failed_at < $2::timestamptz - interval '1 day'`, [
        ip,
        since.toISOString(),
      ]);
      const rows = await tx.query<{ count: number; oldest: string | null }>(
        `select count(*)::int as count, ${isoTimestamp('min(failed_at)', 'oldest')} from kiosk_enrollment_failure where ip = $1 and failed_at > $2`,
        [ip, since.toISOString()],
      );
      return rows[0] ?? { count: 0, oldest: null };
    },

    async recordEnrollmentFailure(ip: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`insert into kiosk_enrollment_failure (ip, failed_at) values ($1, $2)`, [ip, now.toISOString()]);
    },

    /** Attempts since `since`: this kiosk's, and this person's at any kiosk, each with its oldest. */
    async attemptsSince(kioskId: string, personHmac: string, since: Date, tx: Queryable = db): Promise<IdentityAttempts> {
      const rows = await tx.query<IdentityAttempts>(
        `select count(*) filter (where kiosk_id = $1::uuid)::int as kiosk, count(*) filter (where person_hmac = $2)::int as person,
                ${isoTimestamp('min(attempted_at) filter (where kiosk_id = $1::uuid)', '"kioskOldest"')},
                ${isoTimestamp('min(attempted_at) filter (where person_hmac = $2)', '"personOldest"')}
           from kiosk_identity_attempt where attempted_at > $3 and (kiosk_id = $1::uuid or person_hmac = $2)`,
        [kioskId, personHmac, since.toISOString()],
      );
      return rows[0] ?? { kiosk: 0, person: 0, kioskOldest: null, personOldest: null };
    },

    async recordAttempt(attempt: { kioskId: string; personHmac: string; matched: boolean; now: Date }, tx: Queryable = db): Promise<void> {
      await tx.query(`insert into kiosk_identity_attempt (kiosk_id, person_hmac, matched, attempted_at) values ($1::uuid, $2, $3, $4)`, [
        attempt.kioskId,
        attempt.personHmac,
        attempt.matched,
        attempt.now.toISOString(),
      ]);
    },

    /**
     * Today's appointments (the clinic's day) of a patient with this last name (any case) and date
     * of birth that can be or were checked in; only at the kiosk's clinic when it has one.
     */
    async todaysAppointments(
      who: { lastName: string; dateOfBirth: string; clinicId: string | null; now: Date },
      tx: Queryable = db,
    ): Promise<IdentityMatchRow[]> {
      return tx.query<IdentityMatchRow>(
        `${TODAYS_APPOINTMENTS} where lower(p.last_name) = lower($1) and p.date_of_birth = $2::date and ${TODAY_AT_CLINIC}`,
        [who.lastName.trim(), who.dateOfBirth, who.clinicId, who.now.toISOString()],
      );
    },

    /** The same for a scanned booking code: that booking's appointments, only when its patient has this date of birth. */
    async todaysAppointmentsOfBooking(
      who: { bookingKey: string; dateOfBirth: string; clinicId: string | null; now: Date },
      tx: Queryable = db,
    ): Promise<IdentityMatchRow[]> {
      return tx.query<IdentityMatchRow>(
        `${TODAYS_APPOINTMENTS} where a.booking_key = $1 and p.date_of_birth = $2::date and ${TODAY_AT_CLINIC}`,
        [who.bookingKey, who.dateOfBirth, who.clinicId, who.now.toISOString()],
      );
    },
  };
}

export type KiosksRepository = ReturnType<typeof createKiosksRepository>;
