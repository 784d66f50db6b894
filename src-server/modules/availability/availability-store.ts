import type { Clock } from '../../platform/clock';
import { minutesOfDay, type LocalSpan, type ResourceSchedule } from '../schedule/public';
import { AvailabilityIndex, type BusyColumns, type BusyEntry } from './availability-index';
import type { AvailabilityRepository, BusyColumnsRow, ScheduleRows, SettingsRow } from './repository';

/**
 * Owns the in-memory availability index of this server process and keeps it current.
 *
 * - Built from the database on first use (app.ts starts it when the server becomes ready).
 * - Writes made by this process are applied right after their transaction commits, so the very
 *   next answer here no longer offers a booked time.
 * - Other processes (several servers on one PostgreSQL) and other modules write too. Before every
 *   answer the store compares a change counter (availability_version, bumped by triggers inside
 *   each writing transaction, so it orders changes by commit) with the version it has; when it
 *   moved, it reloads only the resources named in availability_change. That costs one indexed
 *   single-row query per answer and never serves stale data. LISTEN/NOTIFY was the alternative:
 *   it needs a dedicated connection per process, does not exist in PGlite, and a notification
 *   can arrive after the next request was answered, so it cannot promise "gone from the very
 *   next answer"; a version read inside the request can.
 * - Concurrent answers share version checks: a request joins the next check that starts after it
 *   arrived (never one already in flight, which might predate a commit it must see).
 */

/** Past appointments cannot affect an offer; keep a day for clinics west of the server. */
const LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** Keep this many versions of change log; a process further behind reloads everything. */
const CHANGE_LOG_KEEP = 50_000;

/**
 * A comma-separated column as an array through JSON.parse: it makes flat strings, where split()
 * makes slices that keep the whole column's text alive (about 13 bytes more per appointment), and
 * it reads numbers natively. split() stays as the fallback for anything JSON cannot spell.
 */
function parseList<T>(text: string, json: () => string, fallback: (value: string) => T): T[] {
  try {
    return JSON.parse(json()) as T[];
  } catch {
    return text.split(',').map(fallback);
  }
}

function toColumns(rows: readonly BusyColumnsRow[]): Map<string, BusyColumns> {
  const columns = new Map<string, BusyColumns>();
  for (const row of rows) {
    const parsed = {
      // Ids are uuid text: nothing in them needs escaping.
      ids: parseList(row.ids, () => `["${row.ids.replaceAll(',', '","')}"]`, String),
      starts: parseList(row.starts, () => `[${row.starts}]`, Number),
      ends: parseList(row.ends, () => `[${row.ends}]`, Number),
      expires: row.expires.split(',').map((value) => (value === '' ? Number.POSITIVE_INFINITY : Number(value))),
    };
    const lengths = [parsed.ids.length, parsed.starts.length, parsed.ends.length, parsed.expires.length];
    if (lengths.some((length) => length !== row.count)) throw new Error(`busy columns of resource ${row.resource_id} do not line up`);
    columns.set(row.resource_id, parsed);
  }
  return columns;
}

function spansByOwner(rows: ScheduleRows['clinicHours']): Map<string, Map<number, LocalSpan[]>> {
  const owners = new Map<string, Map<number, LocalSpan[]>>();
  for (const row of rows) {
    const weekdays = owners.get(row.owner_id) ?? new Map<number, LocalSpan[]>();
    const spans = weekdays.get(row.weekday) ?? [];
    spans.push([minutesOfDay(row.opens), minutesOfDay(row.closes)]);
    spans.sort((a, b) => a[0] - b[0]);
    weekdays.set(row.weekday, spans);
    owners.set(row.owner_id, weekdays);
  }
  return owners;
}

/** Builds each resource's schedule from the rows (pure). */
export function buildSchedules(rows: ScheduleRows): ResourceSchedule[] {
  const clinicZones = new Map(rows.clinics.map((clinic) => [clinic.id, clinic.time_zone]));
  const clinicHours = spansByOwner(rows.clinicHours);
  const resourceHours = spansByOwner(rows.resourceHours);
  const breaks = new Map<string, LocalSpan[]>();
  for (const row of rows.breaks) {
    const list = breaks.get(row.resource_id) ?? [];
    list.push([minutesOfDay(row.starts), minutesOfDay(row.ends)]);
    list.sort((a, b) => a[0] - b[0]);
    breaks.set(row.resource_id, list);
  }
  const closed = new Map<string, Set<string>>();
  for (const row of rows.closed) {
    const set = closed.get(row.clinic_id) ?? new Set<string>();
    set.add(row.closed_on);
    closed.set(row.clinic_id, set);
  }
  return rows.resources.flatMap((resource) => {
    const timeZone = clinicZones.get(resource.clinic_id);
    if (timeZone === undefined) return [];
    return [
      {
        resourceId: resource.id,
        clinicId: resource.clinic_id,
        modalityId: resource.modality_id,
        timeZone,
        weeklyHours: resourceHours.get(resource.id) ?? clinicHours.get(resource.clinic_id) ?? new Map(),
        breaks: breaks.get(resource.id) ?? [],
        closedDates: closed.get(resource.clinic_id) ?? new Set(),
      },
    ];
  });
}

export class AvailabilityStore {
  private current: AvailabilityIndex | null = null;
  private currentSettings: SettingsRow | null = null;
  private version = -1;
  private loading: Promise<void> | null = null;
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private syncsSincePrune = 0;

  constructor(
    private readonly repository: AvailabilityRepository,
    private readonly clock: Clock,
  ) {}

  /** The index, loaded and checked against the database's change counter. */
  async fresh(): Promise<AvailabilityIndex> {
    await this.ensureLoaded();
    await this.sync();
    if (this.current === null) throw new Error('availability index is not loaded');
    return this.current;
  }

  /** The settings the index was built with (lead time, horizon, hold, grid, distances). */
  async settings(): Promise<SettingsRow> {
    await this.ensureLoaded();
    await this.sync();
    if (this.currentSettings === null) throw new Error('availability settings are not loaded');
    return this.currentSettings;
  }

  ensureLoaded(): Promise<void> {
    if (this.current !== null) return Promise.resolve();
    this.loading ??= this.reloadAll().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * Applies this process's own committed write at once (before the 201 goes out).
   * @param written - the counter value the writing transaction ended with and how many times it
   *   bumped it. When nothing else changed in between, the index is now exactly at that version
   *   and the next check need not reload the resource it just updated. Not while a check or
   *   reload is running: its rows may predate this write.
   */
  applyCommitted(added: readonly BusyEntry[], removedIds: readonly string[], written?: { version: number; bumps: number }): void {
    if (this.current === null) return;
    this.current.remove(removedIds);
    this.current.add(added);
    if (written !== undefined && this.inFlight === null && this.loading === null && this.version === written.version - written.bumps) {
      this.version = written.version;
    }
  }

  /**
   * Brings the index up to the database's version. Calls that arrive while a check is running
   * share the next check, which starts after the running one ends.
   */
  sync(): Promise<void> {
    if (this.inFlight === null) {
      this.inFlight = this.checkVersion().finally(() => {
        this.inFlight = null;
      });
      return this.inFlight;
    }
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.sync();
      });
    return this.queued;
  }

  private async checkVersion(): Promise<void> {
    if (this.current === null) return;
    const latest = await this.repository.version();
    if (latest === this.version) return;
    const known = this.version;
    const changes = await this.repository.changedResources(known, latest);
    if (!changes.complete || changes.scheduleChanged) {
      await this.reloadAll();
      return;
    }
    const since = new Date(this.clock.now().getTime() - LOOKBACK_MS);
    const rows = await this.repository.busy(since, changes.resourceIds);
    this.current?.replaceResourceColumns(changes.resourceIds, toColumns(rows));
    // Only ever move forward: a full reload that ran meanwhile may already be newer.
    if (latest > this.version) this.version = latest;
    this.syncsSincePrune += 1;
    if (this.syncsSincePrune >= 1000 && latest > CHANGE_LOG_KEEP) {
      this.syncsSincePrune = 0;
      await this.repository.pruneChanges(latest - CHANGE_LOG_KEEP);
    }
  }

  private async reloadAll(): Promise<void> {
    // The version is read first: the rows read after it include at least those changes, and
    // anything committed in between is newer than the recorded version, so it is reloaded again.
    const version = await this.repository.version();
    const rows = await this.repository.scheduleRows();
    const since = new Date(this.clock.now().getTime() - LOOKBACK_MS);
    const busy = await this.repository.busy(since);
    const index = new AvailabilityIndex(
      {
        leadMinutes: rows.settings.lead_minutes,
        horizonDays: rows.settings.horizon_days,
        slotStepMinutes: rows.settings.slot_step_minutes,
      },
      rows.clinics.map((clinic) => ({ id: clinic.id, slug: clinic.slug, timeZone: clinic.time_zone })),
      buildSchedules(rows),
    );
    index.replaceResourceColumns(
      rows.resources.map((resource) => resource.id),
      toColumns(busy),
    );
    this.current = index;
    this.currentSettings = rows.settings;
    this.version = version;
  }
}
