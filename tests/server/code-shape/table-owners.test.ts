import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDER_CONFIGURATION_TABLES, TABLE_OWNERS, WRITES_BY_OTHERS } from '../../../src-server/db/table-owners';
import { ROOT, sourceFiles } from './source-files';

// Each table has one owner (docs/server.md#table-ownership): the migrations' tables are all
// declared, and a repository writes only the tables its module owns.

const migrations = sourceFiles('src-server/db/migrations', ['.sql']);
const createdTables = [
  ...new Set(
    migrations.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/create table (?:if not exists )?([a-z_][a-z0-9_]*)/gi)].map((m) =>
        (m[1] ?? '').toLowerCase(),
      ),
    ),
  ),
].sort();

const repositories = sourceFiles('src-server', ['.ts']).filter(
  (file) => file.endsWith('/repository.ts') || file.endsWith('-repository.ts'),
);

/** The module (modules/<name>) or platform part (platform/<part>) a repository belongs to. */
function ownerOf(file: string): string {
  const parts = file.split('/');
  return parts[1] === 'modules' ? (parts[2] ?? '') : parts.slice(1, -1).join('/');
}

/** Every `writer -> table` a repository's SQL writes (insert into, update, delete from). */
function writes(): string[] {
  const found = new Set<string>();
  for (const file of repositories) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(/\b(?:insert into|update|delete from)\s+([a-z_][a-z0-9_]*)\b/gi)) {
      const table = (match[1] ?? '').toLowerCase();
      if (createdTables.includes(table)) found.add(`${ownerOf(file)} -> ${table}`);
    }
  }
  return [...found].sort();
}

describe('table ownership', () => {
  it('declares every table the migrations create, once', () => {
    expect(createdTables.length).toBeGreaterThan(60);
    const declared = [...PROVIDER_CONFIGURATION_TABLES, ...Object.keys(TABLE_OWNERS)];
    expect(new Set(declared).size).toBe(declared.length);
    expect([...declared].sort()).toEqual(createdTables);
  });

  it("lets a repository write only its own module's tables, but for the writes declared as left to move", () => {
    const found = writes();
    expect(found.length).toBeGreaterThan(40);
    const foreign = found.filter((write) => {
      const [writer, table] = write.split(' -> ') as [string, string];
      return TABLE_OWNERS[table] !== writer;
    });
    expect(foreign).toEqual(WRITES_BY_OTHERS.map(({ table, writer }) => `${writer} -> ${table}`).sort());
  });

  it('writes no provider configuration from a repository (only the seed writes it)', () => {
    const configuration: readonly string[] = PROVIDER_CONFIGURATION_TABLES;
    expect(writes().filter((write) => configuration.includes(write.split(' -> ')[1] ?? ''))).toEqual([]);
  });
});
