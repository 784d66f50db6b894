import type { Clock } from '../../platform/clock';
import type { AvailabilityStore } from '../availability/public';
import { addDays, localMidnight } from '../schedule/public';
import { toSchedule } from './mappings/schedule';
import { toSlot } from './mappings/slot';
import { invalidParameter } from './outcome';
import type { ClinicRow, ExamRow, FhirRepository } from './repository';
import type { FhirResourceDefinition } from './resource-definition';
import { parseScheduleId, parseSlotId, scheduleId, type ScheduleKey } from './schedule-ids';
import { pageOf, singleValued, type SearchInput } from './search';
import { dateRange } from './search-values';
import { freeStartsIn, isFreeStart } from './slot-times';

/**
 * Schedule (an exam bookable online at a clinic) and Slot (a free start time in one), from the
 * provider's directory and the availability index the booking pages use.
 */

export interface SchedulingDeps {
  repository: FhirRepository;
  store: AvailabilityStore;
  clock: Clock;
}

/** Every clinic and exam; the directory is small (hundreds of rows), and a schedule is a pair of them. */
const ALL = { limit: 100_000 };
const SLOT_STATUSES = new Set(['busy', 'free', 'busy-unavailable', 'busy-tentative', 'entered-in-error']);

interface Pair {
  key: ScheduleKey;
  clinic: ClinicRow;
  exam: ExamRow;
}

/** The clinic and exam of a schedule, when the clinic offers the exam online now. */
async function pairOf(deps: SchedulingDeps, key: ScheduleKey): Promise<Pair | null> {
  const [clinic] = await deps.repository.clinics({ ids: [key.clinicId], limit: 1 });
  const [exam] = await deps.repository.exams({ ids: [key.examId], limit: 1 });
  if (clinic === undefined || exam === undefined || exam.enquiry_only) return null;
  const index = await deps.store.fresh();
  return index.offers(clinic.id, exam.modality_id) ? { key, clinic, exam } : null;
}

/** Every schedule in id order. */
async function allPairs(deps: SchedulingDeps): Promise<Array<Pair & { id: string }>> {
  const [clinics, exams, index] = await Promise.all([deps.repository.clinics(ALL), deps.repository.exams(ALL), deps.store.fresh()]);
  const online = exams.filter((exam) => !exam.enquiry_only);
  return clinics
    .flatMap((clinic) =>
      online
        .filter((exam) => index.offers(clinic.id, exam.modality_id))
        .map((exam) => {
          const key = { clinicId: clinic.id, examId: exam.id };
          return { id: scheduleId(key), key, clinic, exam };
        }),
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `Location/<id>`, `HealthcareService/<id>` (also as an absolute URL) or a bare id; another type's reference matches nothing. */
function actorMatches(pair: Pair, actor: string): boolean {
  const match = /^(?:https?:\/\/[^?#\s]*\/)?(?:([A-Z][A-Za-z]{1,40})\/)?([A-Za-z0-9\-.]{1,64})$/.exec(actor);
  if (match === null) throw invalidParameter('actor takes Location/<id> or HealthcareService/<id>.');
  const [, type, id] = match;
  if (type !== undefined && type !== 'Location' && type !== 'HealthcareService') return false;
  return (type !== 'HealthcareService' && pair.clinic.id === id) || (type !== 'Location' && pair.exam.id === id);
}

/** From the earliest bookable time to the end of the last bookable day, in the clinic's zone. */
async function horizonOf(deps: SchedulingDeps, clinic: ClinicRow): Promise<{ start: string; end: string } | null> {
  const window = (await deps.store.fresh()).window(clinic.id, deps.clock.now().getTime());
  if (window === null) return null;
  const end = localMidnight(addDays(window.lastDate, 1), clinic.time_zone);
  return { start: new Date(window.earliest).toISOString(), end: new Date(end).toISOString() };
}

async function searchSchedules(deps: SchedulingDeps, input: SearchInput) {
  const ids = singleValued(input, '_id');
  const actors = input.groups.get('actor');
  const matching = (await allPairs(deps)).filter(
    (pair) =>
      (ids === undefined || ids.includes(pair.id)) &&
      (actors === undefined || actors.every((group) => group.some((actor) => actorMatches(pair, actor)))) &&
      (input.after === undefined || pair.id > input.after),
  );
  const shown = matching.slice(0, input.count + 1);
  const horizons = new Map<string, { start: string; end: string } | null>();
  for (const pair of shown.slice(0, input.count))
    if (!horizons.has(pair.clinic.id)) horizons.set(pair.clinic.id, await horizonOf(deps, pair.clinic));
  return pageOf(
    shown,
    input.count,
    (pair) => pair.id,
    (pair) => toSchedule(pair.clinic, pair.exam, horizons.get(pair.clinic.id) ?? null),
  );
}

function scheduleResource(deps: SchedulingDeps): FhirResourceDefinition {
  return {
    type: 'Schedule',
    documentation: 'An exam bookable online at a clinic (actor: the Location and the HealthcareService)',
    searchParams: [
      {
        name: 'actor',
        type: 'reference',
        documentation: 'Location/<id> or HealthcareService/<id>; comma-separated: any of them; repeated: all of them',
      },
    ],
    read: async (id) => {
      const key = parseScheduleId(id);
      const pair = key === null ? null : await pairOf(deps, key);
      return pair === null ? null : toSchedule(pair.clinic, pair.exam, await horizonOf(deps, pair.clinic));
    },
    search: (input) => searchSchedules(deps, input),
  };
}

/** The one schedule a Slot search names: `Schedule/<id>` or the bare id. */
function scheduleOfSearch(input: SearchInput): ScheduleKey {
  const values = input.values.get('schedule') ?? [];
  const key = values.length === 1 ? parseScheduleId((values[0] ?? '').replace(/^(.*\/)?Schedule\//, '')) : null;
  if (key === null) throw invalidParameter('A Slot search needs one schedule (schedule=Schedule/<id>, from a Schedule search).');
  return key;
}

async function searchSlots(deps: SchedulingDeps, input: SearchInput) {
  const key = scheduleOfSearch(input);
  const range = dateRange('start', input.values.get('start'));
  if ((input.values.get('status') ?? []).some((status) => !SLOT_STATUSES.has(status)))
    throw invalidParameter(`status takes ${[...SLOT_STATUSES].join(', ')}.`);
  const after = input.after === undefined ? undefined : Number(input.after);
  if (after !== undefined && !Number.isSafeInteger(after))
    throw invalidParameter('The paging cursor (_cursor) is not one this server gave out.');
  const statuses = singleValued(input, 'status');
  const pair = await pairOf(deps, key);
  // Only free times are slots here: a search for other statuses finds none.
  if (pair === null || (statuses !== undefined && !statuses.includes('free'))) return { resources: [], nextKey: null };
  const { clinic, exam } = pair;
  const query = { clinicId: clinic.id, timeZone: clinic.time_zone, modalityId: exam.modality_id, durationMinutes: exam.duration_minutes };
  const starts = freeStartsIn(await deps.store.fresh(), { ...query, range, after, limit: input.count + 1 }, deps.clock.now().getTime());
  return pageOf(starts, input.count, String, (start) => toSlot(key, exam, start));
}

function slotResource(deps: SchedulingDeps): FhirResourceDefinition {
  return {
    type: 'Slot',
    documentation: 'A free start time of a schedule (only free times are served)',
    searchParams: [
      { name: 'schedule', type: 'reference', documentation: 'Schedule/<id>: required, one schedule' },
      { name: 'start', type: 'date', documentation: 'ge, gt, le, lt (or eq) with a date or a dateTime with its zone' },
      { name: 'status', type: 'token', documentation: 'free (the only status of a slot here)' },
    ],
    read: async (id) => {
      const parsed = parseSlotId(id);
      const pair = parsed === null ? null : await pairOf(deps, parsed);
      if (parsed === null || pair === null) return null;
      const { clinic, exam } = pair;
      const query = {
        clinicId: clinic.id,
        timeZone: clinic.time_zone,
        modalityId: exam.modality_id,
        durationMinutes: exam.duration_minutes,
      };
      return isFreeStart(await deps.store.fresh(), query, parsed.start, deps.clock.now().getTime())
        ? toSlot(pair.key, exam, parsed.start)
        : null;
    },
    search: (input) => searchSlots(deps, input),
  };
}

export function schedulingResources(deps: SchedulingDeps): FhirResourceDefinition[] {
  return [scheduleResource(deps), slotResource(deps)];
}
