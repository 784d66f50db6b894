import { localDate } from '../../platform/time-zone';
import { addDays, localDateOf, localMidnight, openIntervals, type Interval, type ResourceSchedule } from '../schedule/public';

/**
 * The in-memory availability index (docs/rules/booking.md#availability-index): every resource's schedule and its
 * busy times (live appointments and holds), so free start times are computed without a query.
 * PGlite runs one query at a time; answering availability from memory is what lets the server
 * serve many patients at once. The database stays the source of truth: availability-store.ts
 * fills this index from it and keeps it current; the exclusion constraint decides every race.
 */

export interface AvailabilityRules {
  leadMinutes: number;
  horizonDays: number;
  slotStepMinutes: number;
}

/** A time a resource is taken: an appointment (holdExpiresAt null) or a hold until it expires. */
export interface BusyEntry {
  id: string;
  resourceId: string;
  start: number;
  end: number;
  holdExpiresAt: number | null;
}

/** One resource's busy times as parallel columns sorted by start: a fill from the database. */
export interface BusyColumns {
  ids: string[];
  starts: number[];
  ends: number[];
  /** A hold's expiry; +Infinity for an appointment. */
  expires: number[];
}

export interface IndexedClinic {
  id: string;
  slug: string;
  timeZone: string;
}

/** Exams longer than this cannot exist (exam.duration_minutes check), so a search may start this early. */
const LONGEST_ENTRY_MS = 240 * 60_000;
const MINUTE = 60_000;

class ResourceState {
  // Parallel arrays sorted by start: cheap to binary-search and to splice at this size (a
  // resource has at most a few thousand future bookings).
  starts: number[] = [];
  ends: number[] = [];
  expires: number[] = [];
  ids: string[] = [];
  private readonly openCache = new Map<string, Interval[]>();

  constructor(readonly schedule: ResourceSchedule) {}

  open(isoDate: string): Interval[] {
    let intervals = this.openCache.get(isoDate);
    if (intervals === undefined) {
      intervals = openIntervals(this.schedule, isoDate);
      this.openCache.set(isoDate, intervals);
    }
    return intervals;
  }

  /** First index whose start is >= value. */
  lowerBound(value: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.starts[middle] ?? 0) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(entry: BusyEntry): void {
    const at = this.lowerBound(entry.start);
    this.starts.splice(at, 0, entry.start);
    this.ends.splice(at, 0, entry.end);
    this.expires.splice(at, 0, entry.holdExpiresAt ?? Number.POSITIVE_INFINITY);
    this.ids.splice(at, 0, entry.id);
  }

  removeAt(at: number): void {
    this.starts.splice(at, 1);
    this.ends.splice(at, 1);
    this.expires.splice(at, 1);
    this.ids.splice(at, 1);
  }

  replace(entries: readonly BusyEntry[]): void {
    const sorted = [...entries].sort((a, b) => a.start - b.start);
    this.starts = sorted.map((entry) => entry.start);
    this.ends = sorted.map((entry) => entry.end);
    this.expires = sorted.map((entry) => entry.holdExpiresAt ?? Number.POSITIVE_INFINITY);
    this.ids = sorted.map((entry) => entry.id);
  }

  /** Takes the columns as they are (no copy): the bulk of a fill's memory is these arrays. */
  replaceColumns(columns: BusyColumns): void {
    let sorted = true;
    for (let index = 1; index < columns.starts.length && sorted; index++) {
      sorted = (columns.starts[index - 1] ?? 0) <= (columns.starts[index] ?? 0);
    }
    if (!sorted) {
      this.replace(
        columns.ids.map((id, index) => ({
          id,
          resourceId: this.schedule.resourceId,
          start: columns.starts[index] ?? 0,
          end: columns.ends[index] ?? 0,
          holdExpiresAt: Number.isFinite(columns.expires[index]) ? (columns.expires[index] ?? null) : null,
        })),
      );
      return;
    }
    this.starts = columns.starts;
    this.ends = columns.ends;
    this.expires = columns.expires;
    this.ids = columns.ids;
  }

  /** True when nothing live overlaps [start, end) at `now` (expired holds do not count). */
  isFree(start: number, end: number, now: number): boolean {
    for (let index = this.lowerBound(start - LONGEST_ENTRY_MS); index < this.starts.length; index++) {
      const busyStart = this.starts[index] ?? 0;
      if (busyStart >= end) break;
      if ((this.ends[index] ?? 0) > start && (this.expires[index] ?? 0) > now) return false;
    }
    return true;
  }

  /**
   * Grid-aligned starts t with [t, t + duration) inside an open interval of the day, clear of
   * every live busy entry, and not before `earliest`. Pushed onto `out` in ascending order.
   */
  collectFreeStarts(
    isoDate: string,
    durationMs: number,
    earliest: number,
    now: number,
    stepMs: number,
    out: number[],
    holds: { nextExpiry: number } = { nextExpiry: Number.POSITIVE_INFINITY },
  ): void {
    for (const [opens, closes] of this.open(isoDate)) {
      if (closes <= earliest) continue;
      let cursor = Math.max(opens, earliest);
      for (let index = this.lowerBound(opens - LONGEST_ENTRY_MS); index < this.starts.length; index++) {
        const busyStart = this.starts[index] ?? 0;
        if (busyStart >= closes) break;
        const busyEnd = this.ends[index] ?? 0;
        const expires = this.expires[index] ?? 0;
        if (busyEnd <= cursor || expires <= now) continue;
        // A live hold blocks only until it expires: an answer built now is good until then.
        if (expires < holds.nextExpiry) holds.nextExpiry = expires;
        emitStarts(cursor, Math.min(busyStart, closes), durationMs, stepMs, out);
        cursor = Math.max(cursor, busyEnd);
      }
      emitStarts(cursor, closes, durationMs, stepMs, out);
    }
  }

  hasFreeStart(isoDate: string, durationMs: number, earliest: number, now: number, stepMs: number): boolean {
    const found: number[] = [];
    // Collecting a day for one resource is a few dozen numbers; simpler than a second walk.
    this.collectFreeStarts(isoDate, durationMs, earliest, now, stepMs, found);
    return found.length > 0;
  }
}

function emitStarts(from: number, until: number, durationMs: number, stepMs: number, out: number[]): void {
  // Starts sit on the step grid counted from the epoch: with a 5 or 15 minute step that is the
  // same wall-clock grid in every Australian zone (offsets are whole, half or 3/4 hours).
  for (let start = Math.ceil(from / stepMs) * stepMs; start + durationMs <= until; start += stepMs) out.push(start);
}

function sortUnique(values: number[]): number[] {
  values.sort((a, b) => a - b);
  let write = 0;
  for (let read = 0; read < values.length; read++) {
    const value = values[read] ?? 0;
    if (write === 0 || values[write - 1] !== value) values[write++] = value;
  }
  values.length = write;
  return values;
}

export class AvailabilityIndex {
  private readonly resources = new Map<string, ResourceState>();
  /** clinicId -> modalityId -> resources in a stable order (the order they are tried in). */
  private readonly byClinicModality = new Map<string, Map<string, ResourceState[]>>();
  private readonly entryResource = new Map<string, string>();
  private readonly clinics = new Map<string, IndexedClinic>();
  /** Bumped on every change to a clinic's busy times: the key that keeps cached days honest. */
  private readonly clinicRevisions = new Map<string, number>();
  /** Rendered days (JSON fragments) per clinic, modality, duration and date; see dayJson(). */
  private readonly dayCache = new Map<string, { revision: number; nowKey: number; validUntil: number; json: string }>();
  /** The last window per clinic: one request asks for it once per day and clinic. */
  private readonly windows = new Map<string, { now: number; window: { firstDate: string; lastDate: string; earliest: number } }>();

  constructor(
    readonly rules: AvailabilityRules,
    clinics: readonly IndexedClinic[],
    schedules: readonly ResourceSchedule[],
  ) {
    for (const clinic of clinics) this.clinics.set(clinic.id, clinic);
    for (const schedule of schedules) {
      const state = new ResourceState(schedule);
      this.resources.set(schedule.resourceId, state);
      let byModality = this.byClinicModality.get(schedule.clinicId);
      if (byModality === undefined) {
        byModality = new Map();
        this.byClinicModality.set(schedule.clinicId, byModality);
      }
      const list = byModality.get(schedule.modalityId) ?? [];
      list.push(state);
      byModality.set(schedule.modalityId, list);
    }
  }

  get size(): number {
    return this.entryResource.size;
  }

  /**
   * Rough heap bytes of the busy times (the bulk of the index at scale): per entry three
   * doubles, the id string and its slots in the id list and the id map. Benchmarks compare it
   * with the measured heap (docs/rules/booking.md#availability-index).
   */
  memoryEstimate(): number {
    let bytes = 0;
    for (const state of this.resources.values()) {
      for (const id of state.ids) bytes += 3 * 8 + 8 + 16 + Math.ceil(id.length / 8) * 8 + 3 * 8;
    }
    return bytes;
  }

  clinic(clinicId: string): IndexedClinic | undefined {
    return this.clinics.get(clinicId);
  }

  /** Resource ids of a modality at a clinic, in the order bookings try them. */
  resourceIds(clinicId: string, modalityId: string): string[] {
    return (this.byClinicModality.get(clinicId)?.get(modalityId) ?? []).map((state) => state.schedule.resourceId);
  }

  offers(clinicId: string, modalityId: string): boolean {
    return (this.byClinicModality.get(clinicId)?.get(modalityId)?.length ?? 0) > 0;
  }

  // ---- writes -------------------------------------------------------------------------------

  /** Bumped on every change anywhere (whole answers cached by the caller use it). */
  revision = 0;

  private touch(state: ResourceState): void {
    this.revision += 1;
    const clinicId = state.schedule.clinicId;
    this.clinicRevisions.set(clinicId, (this.clinicRevisions.get(clinicId) ?? 0) + 1);
  }

  add(entries: readonly BusyEntry[]): void {
    for (const entry of entries) {
      const state = this.resources.get(entry.resourceId);
      if (state === undefined) continue;
      this.touch(state);
      if (this.entryResource.has(entry.id)) this.remove([entry.id]);
      state.insert(entry);
      this.entryResource.set(entry.id, entry.resourceId);
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const resourceId = this.entryResource.get(id);
      if (resourceId === undefined) continue;
      this.entryResource.delete(id);
      const state = this.resources.get(resourceId);
      if (state === undefined) continue;
      this.touch(state);
      const at = state.ids.indexOf(id);
      if (at >= 0) state.removeAt(at);
    }
  }

  /**
   * Replaces everything known about these resources with their columns (a fill or reload from the
   * database); a resource not in `columns` has nothing busy.
   */
  replaceResourceColumns(resourceIds: readonly string[], columns: ReadonlyMap<string, BusyColumns>): void {
    for (const resourceId of resourceIds) {
      const state = this.resources.get(resourceId);
      if (state === undefined) continue;
      this.touch(state);
      for (const id of state.ids) this.entryResource.delete(id);
      state.replaceColumns(columns.get(resourceId) ?? { ids: [], starts: [], ends: [], expires: [] });
      // The state's own id string, not one per entry.
      const shared = state.schedule.resourceId;
      for (const id of state.ids) this.entryResource.set(id, shared);
    }
  }

  // ---- reads --------------------------------------------------------------------------------

  /** The first and last local dates bookable at a clinic at `now`, and the earliest start instant. */
  window(clinicId: string, now: number): { firstDate: string; lastDate: string; earliest: number } | null {
    const cached = this.windows.get(clinicId);
    if (cached !== undefined && cached.now === now) return cached.window;
    const clinic = this.clinics.get(clinicId);
    if (clinic === undefined) return null;
    const earliest = now + this.rules.leadMinutes * MINUTE;
    const today = localDate(new Date(now), clinic.timeZone);
    const window = {
      firstDate: localDateOf(earliest, clinic.timeZone, today),
      lastDate: addDays(today, this.rules.horizonDays),
      earliest,
    };
    this.windows.set(clinicId, { now, window });
    return window;
  }

  /** Free start instants (ms) on one local date for a booking of `durationMinutes` on one resource. */
  freeStarts(clinicId: string, modalityId: string, durationMinutes: number, isoDate: string, now: number): number[] {
    const window = this.window(clinicId, now);
    if (window === null || isoDate < window.firstDate || isoDate > window.lastDate) return [];
    const states = this.byClinicModality.get(clinicId)?.get(modalityId) ?? [];
    const out: number[] = [];
    const stepMs = this.rules.slotStepMinutes * MINUTE;
    for (const state of states) state.collectFreeStarts(isoDate, durationMinutes * MINUTE, window.earliest, now, stepMs, out);
    return states.length > 1 ? sortUnique(out) : out;
  }

  /**
   * One day's free starts rendered by `render`, cached until something can change the answer:
   * a write to the clinic (its revision), `now + lead` crossing the next grid time on the day it
   * cuts into, or a live hold that was counted as busy expiring.
   */
  dayJson(
    clinicId: string,
    modalityId: string,
    durationMinutes: number,
    isoDate: string,
    now: number,
    render: (starts: readonly number[]) => string,
    validity: { until: number } = { until: Number.POSITIVE_INFINITY },
  ): string {
    const window = this.window(clinicId, now);
    const clinic = this.clinics.get(clinicId);
    if (window === null || clinic === undefined || isoDate < window.firstDate || isoDate > window.lastDate) return render([]);
    const stepMs = this.rules.slotStepMinutes * MINUTE;
    const nowKey = window.earliest <= localMidnight(isoDate, clinic.timeZone) ? -1 : Math.ceil(window.earliest / stepMs);
    const revision = this.clinicRevisions.get(clinicId) ?? 0;
    const key = `${clinicId}|${modalityId}|${durationMinutes}|${isoDate}`;
    const cached = this.dayCache.get(key);
    if (cached !== undefined && cached.revision === revision && cached.nowKey === nowKey && now < cached.validUntil) {
      validity.until = Math.min(validity.until, cached.validUntil);
      return cached.json;
    }
    const states = this.byClinicModality.get(clinicId)?.get(modalityId) ?? [];
    const out: number[] = [];
    const holds = { nextExpiry: Number.POSITIVE_INFINITY };
    for (const state of states) state.collectFreeStarts(isoDate, durationMinutes * MINUTE, window.earliest, now, stepMs, out, holds);
    const json = render(states.length > 1 ? sortUnique(out) : out);
    if (this.dayCache.size > 200_000) this.dayCache.clear();
    this.dayCache.set(key, { revision, nowKey, validUntil: holds.nextExpiry, json });
    validity.until = Math.min(validity.until, holds.nextExpiry);
    return json;
  }

  /** Whether any resource has a free start on the date (the month view). */
  hasFreeStart(clinicId: string, modalityId: string, durationMinutes: number, isoDate: string, now: number): boolean {
    const window = this.window(clinicId, now);
    if (window === null || isoDate < window.firstDate || isoDate > window.lastDate) return false;
    const stepMs = this.rules.slotStepMinutes * MINUTE;
    for (const state of this.byClinicModality.get(clinicId)?.get(modalityId) ?? []) {
      if (state.hasFreeStart(isoDate, durationMinutes * MINUTE, window.earliest, now, stepMs)) return true;
    }
    return false;
  }

  /** The first free start within the horizon, or null. */
  nextFreeStart(clinicId: string, modalityId: string, durationMinutes: number, now: number): number | null {
    const window = this.window(clinicId, now);
    if (window === null || !this.offers(clinicId, modalityId)) return null;
    for (let date = window.firstDate; date <= window.lastDate; date = addDays(date, 1)) {
      const starts = this.freeStarts(clinicId, modalityId, durationMinutes, date, now);
      if (starts.length > 0) return starts[0] ?? null;
    }
    return null;
  }

  /**
   * Which resources could take [start, start + duration): `scheduled` ones are open then (the
   * time is a real offer), `free` ones also have nothing live in the way according to the index.
   */
  candidates(
    clinicId: string,
    modalityId: string,
    durationMinutes: number,
    start: number,
    now: number,
  ): { scheduled: string[]; free: string[]; date: string | null } {
    const clinic = this.clinics.get(clinicId);
    const window = this.window(clinicId, now);
    const stepMs = this.rules.slotStepMinutes * MINUTE;
    if (clinic === undefined || window === null || start % stepMs !== 0 || start < window.earliest) {
      return { scheduled: [], free: [], date: null };
    }
    const date = localDateOf(start, clinic.timeZone, window.firstDate);
    if (date > window.lastDate) return { scheduled: [], free: [], date };
    const end = start + durationMinutes * MINUTE;
    const scheduled: string[] = [];
    const free: string[] = [];
    for (const state of this.byClinicModality.get(clinicId)?.get(modalityId) ?? []) {
      if (!state.open(date).some(([opens, closes]) => opens <= start && end <= closes)) continue;
      scheduled.push(state.schedule.resourceId);
      if (state.isFree(start, end, now)) free.push(state.schedule.resourceId);
    }
    return { scheduled, free, date };
  }

  /** Live busy entries overlapping [start, end) on any resource (tests and the overlap audit). */
  overlapping(resourceId: string, start: number, end: number, now: number): boolean {
    const state = this.resources.get(resourceId);
    return state !== undefined && !state.isFree(start, end, now);
  }
}
