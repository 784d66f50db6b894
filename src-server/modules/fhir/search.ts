import type { Bundle, Resource } from '@medplum/fhirtypes';
import { invalidParameter, notSupported } from './outcome';

/**
 * The parameters of a FHIR search as this server reads them, and the searchset Bundle it answers.
 * Every parameter a resource does not declare, and every modifier, is refused with a 400 (not
 * silently ignored: a client would take a wider answer for the one it asked). Paging is keyset
 * paging: `_count` rows after an opaque cursor (`_cursor`), the key of the last row of the page
 * before, so rows inserted between two pages neither repeat nor hide others.
 */

export type SearchParamType = 'token' | 'string' | 'reference' | 'date';

export interface SearchParamDefinition {
  name: string;
  type: SearchParamType;
  documentation: string;
}

/** What a search handler gets: the declared parameters' values (comma-separated ones split), the cursor key and the page size. */
export interface SearchInput {
  values: ReadonlyMap<string, readonly string[]>;
  /** The same values as FHIR groups them: one list per occurrence of the parameter (all must match), each any of its comma-separated values. */
  groups: ReadonlyMap<string, ReadonlyArray<readonly string[]>>;
  after: string | undefined;
  count: number;
}

export interface SearchPage {
  resources: Resource[];
  /** The key of the last resource when more follow; null on the last page. */
  nextKey: string | null;
}

export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 100;
/** Parameters every search takes; `_cursor` is this server's paging cursor (only from a `next` link). */
const COMMON = new Set(['_count', '_cursor', '_format', '_id']);
const JSON_FORMATS = new Set(['json', 'application/json', 'application/fhir+json']);
const MAX_VALUE_LENGTH = 200;

/** The query as a map of name → values, refusing what cannot be read. */
function queryValues(query: unknown): Map<string, string[]> {
  const values = new Map<string, string[]>();
  if (typeof query !== 'object' || query === null) return values;
  for (const [name, raw] of Object.entries(query as Record<string, unknown>)) {
    const list = Array.isArray(raw) ? raw : [raw];
    if (!list.every((value): value is string => typeof value === 'string'))
      throw invalidParameter(`The parameter ${name} could not be read.`);
    if (list.some((value) => value.length > MAX_VALUE_LENGTH || value.trim() === ''))
      throw invalidParameter(`A value of the parameter ${name} is empty or longer than ${MAX_VALUE_LENGTH} characters.`);
    values.set(name, list);
  }
  return values;
}

function single(values: Map<string, string[]>, name: string): string | undefined {
  const list = values.get(name);
  if (list === undefined) return undefined;
  if (list.length > 1) throw invalidParameter(`The parameter ${name} may be given once.`);
  return list[0];
}

export function encodeCursor(key: string): string {
  return Buffer.from(JSON.stringify({ k: key }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { k?: unknown }).k === 'string')
      return (parsed as { k: string }).k;
  } catch {
    // Falls through to the refusal.
  }
  throw invalidParameter('The paging cursor (_cursor) is not one this server gave out; start the search again.');
}

function countOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_COUNT;
  const count = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    throw invalidParameter(`_count must be a whole number from 1 to ${MAX_COUNT}.`);
  return count;
}

/** Reads a search's query against the resource's declared parameters. */
export function readSearch(query: unknown, declared: readonly SearchParamDefinition[]): SearchInput {
  const values = queryValues(query);
  const known = new Set(declared.map((parameter) => parameter.name));
  for (const name of values.keys()) {
    if (name.includes(':')) throw notSupported(`Search modifiers (${name.slice(0, 40)}) are not supported.`);
    if (!COMMON.has(name) && !known.has(name)) throw notSupported(`The search parameter ${name.slice(0, 40)} is not supported here.`);
  }
  const format = single(values, '_format');
  if (format !== undefined && !JSON_FORMATS.has(format)) throw notSupported('Only JSON (_format=json) is served.');
  const cursor = single(values, '_cursor');
  const groups = new Map<string, string[][]>();
  for (const name of [...known, '_id']) {
    const list = values.get(name);
    if (list !== undefined)
      groups.set(
        name,
        list.map((value) => value.split(',').filter((part) => part !== '')),
      );
  }
  const selected = new Map([...groups].map(([name, lists]) => [name, lists.flat()]));
  return {
    values: selected,
    groups,
    after: cursor === undefined ? undefined : decodeCursor(cursor),
    count: countOf(single(values, '_count')),
  };
}

/**
 * For a parameter a resource has one value of (an id, a provider number, a status): the values that
 * satisfy every occurrence, so `_id=a,b&_id=b` is `b` and `_id=a&_id=b` nothing; undefined when not given.
 */
export function singleValued(input: SearchInput, name: string): string[] | undefined {
  const groups = input.groups.get(name);
  if (groups === undefined) return undefined;
  const [first = [], ...rest] = groups;
  return first.filter((value) => rest.every((group) => group.includes(value)));
}

/** The query of the next page: the same parameters and a new cursor. */
function nextQuery(query: unknown, nextKey: string): string {
  const params = new URLSearchParams();
  for (const [name, list] of queryValues(query)) if (name !== '_cursor') for (const value of list) params.append(name, value);
  params.set('_cursor', encodeCursor(nextKey));
  return params.toString();
}

export function searchBundle(base: string, type: string, query: unknown, page: SearchPage): Bundle {
  const self = new URLSearchParams();
  for (const [name, list] of queryValues(query)) for (const value of list) self.append(name, value);
  const selfQuery = self.toString();
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    link: [
      { relation: 'self', url: `${base}/${type}${selfQuery === '' ? '' : `?${selfQuery}`}` },
      ...(page.nextKey === null ? [] : [{ relation: 'next', url: `${base}/${type}?${nextQuery(query, page.nextKey)}` }]),
    ],
    entry: page.resources.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id ?? ''}`,
      resource,
      search: { mode: 'match' as const },
    })),
  };
}

/** A keyset page from `count + 1` rows: the first `count`, and the last one's key when there were more. */
export function pageOf<Row>(rows: readonly Row[], count: number, keyOf: (row: Row) => string, map: (row: Row) => Resource): SearchPage {
  const shown = rows.slice(0, count);
  const last = shown.at(-1);
  return { resources: shown.map(map), nextKey: rows.length > count && last !== undefined ? keyOf(last) : null };
}
