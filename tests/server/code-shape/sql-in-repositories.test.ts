import { describe, expect, it } from 'vitest';
import { matchingLines, sourceFiles } from './source-files';

// SQL lives in repositories (docs/server.md#module-shape): a module's `repository.ts` (or
// `<name>-repository.ts`) holds every statement, so a table's readers and writers can be found in
// one place. src-server/db/ (connection, migrations, seed, the audit log's repository) is where the
// database itself is kept.

const QUERY_CALL = /\.query(<[^>]*>)?\(/;
const EXCLUDED_FOLDERS = ['src-server/db'];

/**
 * Files that still run SQL outside a repository. Move their statements into the owning module's
 * repository, then take them off this list: the test fails once a listed file runs no SQL, so the
 * list can only shrink. A new file here is a step back.
 */
const PENDING_FILES: readonly string[] = [
  'src-server/dev-pacs/demo-results.ts',
  'src-server/modules/attachments/upload-budget.ts',
  'src-server/modules/booking/booking-limits.ts',
  'src-server/modules/booking/form-details.ts',
  'src-server/modules/callbacks/callback-limits.ts',
  'src-server/modules/results/image-generation.ts',
  'src-server/platform/captcha/captcha.ts',
  'src-server/platform/idempotency.ts',
];

const isRepository = (file: string): boolean => file.endsWith('/repository.ts') || file.endsWith('-repository.ts');

describe('SQL runs in repositories only', () => {
  const files = sourceFiles('src-server', ['.ts'], EXCLUDED_FOLDERS).filter((file) => !isRepository(file));

  it('should scan the server outside its repositories', () => {
    expect(files).toContain('src-server/app.ts');
    expect(files.some((file) => file.endsWith('/repository.ts'))).toBe(false);
  });

  it('should find no query call outside a repository but in the pending files', () => {
    expect(
      matchingLines(
        files.filter((file) => !PENDING_FILES.includes(file)),
        QUERY_CALL,
      ),
    ).toEqual([]);
  });

  it('should list only pending files that exist and still run SQL', () => {
    const clean = PENDING_FILES.filter((file) => !files.includes(file) || matchingLines([file], QUERY_CALL).length === 0);
    expect(clean, 'remove these from PENDING_FILES').toEqual([]);
  });
});
