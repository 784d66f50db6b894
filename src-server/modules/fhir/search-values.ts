import { invalidParameter } from './outcome';
import type { SearchInput } from './search';

/**
 * Reading the values of typed search parameters (FHIR R4 search.html): dates with their prefixes
 * as a range of instants, and references as the ids of one resource type. A value that cannot be
 * read is a 400 that names the parameter and the form it takes.
 */

/** Half-open: from ≤ t < to, in epoch milliseconds. */
export interface TimeRange {
  from: number;
  to: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = 24 * 60 * 60_000;

/** A date (a UTC day) or a dateTime with its zone, as [first instant, instant after]. */
function instantsOf(name: string, text: string): TimeRange {
  const at = DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at))
    throw invalidParameter(`${name} takes a date (2026-03-10) or a dateTime with its zone (2026-03-10T09:00:00+11:00).`);
  return { from: at, to: DATE.test(text) ? at + DAY : at + 1 };
}

/**
 * Every occurrence of a date parameter (ge, gt, le, lt; eq or none: the day or instant given) as one
 * range they all allow; unbounded where none limits it.
 */
export function dateRange(name: string, values: readonly string[] | undefined): TimeRange {
  const range: TimeRange = { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };
  for (const value of values ?? []) {
    const match = /^(ge|gt|le|lt|eq)?(.*)$/.exec(value);
    const prefix = match?.[1] ?? 'eq';
    const { from, to } = instantsOf(name, match?.[2] ?? '');
    if (prefix === 'ge') range.from = Math.max(range.from, from);
    else if (prefix === 'gt') range.from = Math.max(range.from, to);
    else if (prefix === 'lt') range.to = Math.min(range.to, from);
    else if (prefix === 'le') range.to = Math.min(range.to, to);
    else {
      range.from = Math.max(range.from, from);
      range.to = Math.min(range.to, to);
    }
  }
  return range;
}

/** A date parameter's range as ISO instants for SQL: both ends open (null) when it is not given. */
export function boundsOf(input: SearchInput, name: string): { from: string | null; to: string | null } {
  return rangeBounds(dateRange(name, input.values.get(name)));
}

/** The range as ISO instants for SQL (null for an open end). */
export function rangeBounds(range: TimeRange): { from: string | null; to: string | null } {
  return {
    from: Number.isFinite(range.from) ? new Date(range.from).toISOString() : null,
    to: Number.isFinite(range.to) ? new Date(range.to).toISOString() : null,
  };
}

const REFERENCE = /^(?:https?:\/\/[^?#\s]*\/)?(?:([A-Z][A-Za-z]{1,40})\/)?([A-Za-z0-9\-.]{1,64})$/;

/**
 * The ids a reference parameter names for one resource type, every occurrence applied (each must
 * match; comma-separated values: any of them): `Patient/<id>`, its absolute URL, or a bare id.
 * A reference to another type can match nothing, so it drops out. Undefined when not given.
 */
export function referencedIds(input: SearchInput, name: string, type: string): string[] | undefined {
  const groups = input.groups.get(name);
  if (groups === undefined) return undefined;
  const idsOf = (group: readonly string[]) =>
    group.flatMap((value) => {
      const match = REFERENCE.exec(value);
      if (match === null) throw invalidParameter(`${name} takes ${type}/<id>.`);
      return match[1] === undefined || match[1] === type ? [match[2] ?? ''] : [];
    });
  const [first = [], ...rest] = groups.map(idsOf);
  return first.filter((id) => rest.every((group) => group.includes(id)));
}

/** The patients a search names by `patient` and `subject` (both must match when both are given); undefined when neither is. */
export function patientIdsOf(input: SearchInput): string[] | undefined {
  const byPatient = referencedIds(input, 'patient', 'Patient');
  const bySubject = referencedIds(input, 'subject', 'Patient');
  if (byPatient === undefined) return bySubject;
  return bySubject === undefined ? byPatient : byPatient.filter((id) => bySubject.includes(id));
}

/**
 * The key of a page ordered by a time and then an id, for a search whose rows are in time order:
 * `<ISO instant>|<uuid>`. A key the server did not give out is a 400.
 */
export interface TimeKey {
  at: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function timeKey(at: Date | string, id: string): string {
  return `${new Date(at).toISOString()}|${id}`;
}

export function parseTimeKey(key: string | undefined): TimeKey | undefined {
  if (key === undefined) return undefined;
  const [at = '', id = ''] = key.split('|');
  if (!DATE_TIME.test(at) || !UUID.test(id))
    throw invalidParameter('The paging cursor (_cursor) is not one this server gave out; start the search again.');
  return { at, id };
}
