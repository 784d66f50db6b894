import type { Queryable } from '../../db/connection';

/** SQL only (docs/server.md#module-shape): what the availability index is built from. */

/** Statuses that hold a resource's time; must match the exclusion constraint (0002_booking.sql). */
export const SLOT_HOLDING_STATUSES = ['HELD', 'BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN'] as const;
const LIVE = `status in (${SLOT_HOLDING_STATUSES.map((status) => `'${status}'`).join(', ')})`;

export type SettingsRow = {
  lead_minutes: number;
  horizon_days: number;
  hold_minutes: number;
  slot_step_minutes: number;
  max_distance_km: number;
  default_latitude: number;
  default_longitude: number;
  default_label: string;
};

export type ClinicRow = {
  id: string;
  slug: string;
  time_zone: string;
};

export type ResourceRow = {
  id: string;
  clinic_id: string;
  modality_id: string;
  code: string;
};

export type HoursRow = {
  owner_id: string;
  weekday: number;
  opens: string;
  closes: string;
};

export type BreakRow = {
  resource_id: string;
  starts: string;
  ends: string;
};

export type ClosedRow = {
  clinic_id: string;
  closed_on: string;
};

export interface ScheduleRows {
  settings: SettingsRow;
  clinics: ClinicRow[];
  resources: ResourceRow[];
  clinicHours: HoursRow[];
  resourceHours: HoursRow[];
  breaks: BreakRow[];
  closed: ClosedRow[];
}

/**
 * One resource's live busy times, sorted by start, as comma-separated columns: one row per
 * resource instead of one per appointment. At 1.7 million appointments, building a row object
 * per appointment was most of the index's fill time (docs/rules/booking.md#availability-index).
 * `expires` is empty for an appointment, a hold's expiry otherwise (ms since the epoch).
 */
export type BusyColumnsRow = {
  resource_id: string;
  count: number;
  ids: string;
  starts: string;
  ends: string;
  expires: string;
};

const ms = (instant: string): string => `(extract(epoch from ${instant}) * 1000)::float8::text`;
// coalesce: string_agg skips nulls, which would shift the columns against each other.
const BUSY_COLUMNS = `resource_id::text as resource_id, count(*)::int as count,
  string_agg(id::text, ',' order by lower(during), id) as ids,
  string_agg(${ms('lower(during)')}, ',' order by lower(during), id) as starts,
  string_agg(${ms('upper(during)')}, ',' order by lower(during), id) as ends,
  string_agg(case when status = 'HELD' then coalesce(${ms('hold_expires_at')}, '') else '' end, ',' order by lower(during), id) as expires`;

export function createAvailabilityRepository(db: Queryable) {
  return {
    async settings(tx: Queryable = db): Promise<SettingsRow> {
      const rows = await tx.query<SettingsRow>(
        `select lead_minutes, horizon_days, hold_minutes, slot_step_minutes, max_distance_km::float8 as max_distance_km,
                default_latitude::float8 as default_latitude, default_longitude::float8 as default_longitude, default_label
           from booking_settings where id = 1`,
      );
      const row = rows[0];
      if (row === undefined) throw new Error('booking_settings has no row (migration 0002 inserts it)');
      return row;
    },

    async scheduleRows(tx: Queryable = db): Promise<ScheduleRows> {
      const settings = await this.settings(tx);
      const clinics = await tx.query<ClinicRow>('select id::text as id, slug, time_zone from clinic order by position, slug');
      const resources = await tx.query<ResourceRow>(
        'select id::text as id, clinic_id::text as clinic_id, modality_id::text as modality_id, code from resource order by code',
      );
      const clinicHours = await tx.query<HoursRow>(
        `select clinic_id::text as owner_id, weekday, opens::text as opens, closes::text as closes
           from clinic_opening_hours order by opens`,
      );
      const resourceHours = await tx.query<HoursRow>(
        `select resource_id::text as owner_id, weekday, opens::text as opens, closes::text as closes
           from resource_opening_hours order by opens`,
      );
      const breaks = await tx.query<BreakRow>(
        'select resource_id::text as resource_id, starts::text as starts, ends::text as ends from resource_break order by starts',
      );
      // Closed days of the clinic plus the public holidays of its state.
      const closed = await tx.query<ClosedRow>(
        `select clinic_id::text as clinic_id, closed_on::text as closed_on from clinic_closed_date
         union
         select c.id::text, h.holiday_on::text from public_holiday h join clinic c on c.state = h.state`,
      );
      return { settings, clinics, resources, clinicHours, resourceHours, breaks, closed };
    },

    /** Live appointments and holds that end after `since` (past ones cannot affect an offer), per resource. */
    async busy(since: Date, resourceIds: readonly string[] | null = null, tx: Queryable = db): Promise<BusyColumnsRow[]> {
      if (resourceIds === null) {
        return tx.query<BusyColumnsRow>(
          `select ${BUSY_COLUMNS} from appointment where ${LIVE} and upper(during) > $1::timestamptz group by resource_id`,
          [since.toISOString()],
        );
      }
      if (resourceIds.length === 0) return [];
      return tx.query<BusyColumnsRow>(
        `select ${BUSY_COLUMNS} from appointment
          where ${LIVE} and upper(during) > $1::timestamptz and resource_id = any($2::uuid[]) group by resource_id`,
        [since.toISOString(), `{${resourceIds.join(',')}}`],
      );
    },

    async version(tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ version: number }>('select version::float8 as version from availability_version where id = 1');
      return rows[0]?.version ?? 0;
    },

    /** Resources changed in (after, upTo]; null in the list means schedules changed. */
    async changedResources(
      after: number,
      upTo: number,
      tx: Queryable = db,
    ): Promise<{ resourceIds: string[]; scheduleChanged: boolean; complete: boolean }> {
      const rows = await tx.query<{ resource_id: string | null; oldest: number }>(
        `select distinct resource_id::text as resource_id,
                (select coalesce(min(version), 0)::float8 from availability_change) as oldest
           from availability_change where version > $1 and version <= $2`,
        [after, upTo],
      );
      const oldest = rows[0]?.oldest ?? 0;
      return {
        resourceIds: rows.flatMap((row) => (row.resource_id === null ? [] : [row.resource_id])),
        scheduleChanged: rows.some((row) => row.resource_id === null),
        // Every version has a change row; if the ones after `after` were pruned, the log cannot
        // say what changed and the caller reloads everything.
        complete: rows.length > 0 && oldest <= after + 1,
      };
    },

    /** Drops change-log entries no server needs (older than the given version). */
    async pruneChanges(belowVersion: number, tx: Queryable = db): Promise<void> {
      await tx.query('delete from availability_change where version < $1', [belowVersion]);
    },

    /** Whether migration 0002 has run (a server on an empty database must still start). */
    async schemaReady(tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ ready: boolean }>(`select to_regclass('availability_version') is not null as ready`);
      return rows[0]?.ready === true;
    },
  };
}

export type AvailabilityRepository = ReturnType<typeof createAvailabilityRepository>;
