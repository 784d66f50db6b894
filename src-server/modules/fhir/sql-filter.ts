/**
 * The where clause of a search, built a condition at a time with numbered parameters ($1, $2…),
 * so no value is ever written into the SQL text.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A keyset's time column, to the millisecond as the page key carries it (search-values.ts timeKey):
 * a time stored with microseconds then neither repeats nor skips its row at a page's edge. Order by
 * it too.
 */
export function keysetTime(column: string): string {
  return `date_trunc('milliseconds', ${column})`;
}

export class SqlFilter {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  /** The number of a new parameter with this value, as the SQL names it ($n). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** A condition; `clause` gets the value's parameter ($n). */
  add(clause: (parameter: string) => string, value: unknown): this {
    this.clauses.push(clause(this.param(value)));
    return this;
  }

  /** A condition written with parameters ($n) taken from param(). */
  raw(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  /** `column = any(ids)`; ids that are no uuid match nothing. */
  ids(column: string, ids: readonly string[] | undefined): this {
    return ids === undefined
      ? this
      : this.add(
          (n) => `${column} = any(${n}::uuid[])`,
          ids.filter((id) => UUID.test(id)),
        );
  }

  /** A time column within [from, to) (ISO instants; null: open). */
  range(column: string, bounds: { from: string | null; to: string | null } | undefined): this {
    if (bounds === undefined) return this;
    if (bounds.from !== null) this.add((n) => `${column} >= ${n}::timestamptz`, bounds.from);
    if (bounds.to !== null) this.add((n) => `${column} < ${n}::timestamptz`, bounds.to);
    return this;
  }

  /** Rows after an id in id order; a cursor that is no uuid starts from the first row. */
  afterId(column: string, after: string | undefined): this {
    if (after === undefined) return this;
    return this.add((n) => `${column} > ${n}::uuid`, UUID.test(after) ? after : '00000000-0000-0000-0000-000000000000');
  }

  /** Rows after a (time, id) key in (keysetTime(time), id) order. */
  afterTimeKey(timeColumn: string, idColumn: string, key: { at: string; id: string } | undefined): this {
    if (key === undefined) return this;
    return this.raw(`(${keysetTime(timeColumn)}, ${idColumn}) > (${this.param(key.at)}::timestamptz, ${this.param(key.id)}::uuid)`);
  }

  /** Case-insensitive prefixes (FHIR string search): each group must match by any of its prefixes in any of the columns. */
  prefixes(columns: readonly string[], groups: ReadonlyArray<readonly string[]> | undefined): this {
    for (const group of groups ?? []) {
      const patterns = group.map((value) => `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      this.add((n) => `(${columns.map((column) => `lower(${column}) like any(${n}::text[])`).join(' or ')})`, patterns);
    }
    return this;
  }

  get where(): string {
    return this.clauses.length === 0 ? '' : `where ${this.clauses.join(' and ')}`;
  }
}
