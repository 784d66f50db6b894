import { describe, expect, it } from 'vitest';
import { matchingLines, sourceFiles } from './source-files';

// SQL lives in repositories (docs/server.md#module-shape): a module's `repository.ts` (or
// `<name>-repository.ts`) holds every statement, so a table's readers and writers can be found in
// one place. src-server/db/ (connection, migrations, seed, the audit log's repository) is where the
// database itself is kept.

const QUERY_CALL = /\.query(<[^>]*>)?\(/;
const EXCLUDED_FOLDERS = ['src-server/db'];

const isRepository = (file: string): boolean => file.endsWith('/repository.ts') || file.endsWith('-repository.ts');

describe('SQL runs in repositories only', () => {
  const files = sourceFiles('src-server', ['.ts'], EXCLUDED_FOLDERS).filter((file) => !isRepository(file));

  it('should scan the server outside its repositories', () => {
    expect(files).toContain('src-server/app.ts');
    expect(files.some((file) => file.endsWith('/repository.ts'))).toBe(false);
  });

  it('should find no query call outside a repository', () => {
    expect(matchingLines(files, QUERY_CALL)).toEqual([]);
  });
});
