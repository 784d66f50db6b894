import { describe, expect, it } from 'vitest';
import { matchingLines, sourceFiles } from './source-files';

// Source comments say why in a few words, or point to a file of the repository (docs/rules/*.md
// and its #anchors). "spec point 3" meant three different things and an issue number means
// nothing to a reader of the code, so neither may appear in the sources.

const SOURCE_FOLDERS = ['src-contract', 'src-server', 'src-web', 'src-main', 'src-preload'];
/** Applied migrations never change, so their old citations stay. */
const EXCLUDED_FOLDERS = ['src-server/db/migrations'];
const EXTENSIONS = ['.ts', '.tsx', '.css', '.mjs'];
const CITATION = /spec points? [0-9]|\bissue [0-9]+/i;

/**
 * Files still citing spec points or issues, left alone while another engineer edits them. Fix
 * their comments (a docs/rules anchor, or the rule in a few words), then remove them from here:
 * the test fails once a listed file is clean, so the list cannot outlive its reason.
 */
const PENDING_FILES: readonly string[] = [];

/** Every `file:line: text` citing a spec point or an issue in `files`. */
const citations = (files: readonly string[]): string[] => matchingLines(files, CITATION);

describe('source comments cite no spec points or issues', () => {
  const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(folder, EXTENSIONS, EXCLUDED_FOLDERS));

  it('should find the sources it scans', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('src-server/app.ts');
    expect(files.some((file) => file.startsWith('src-server/db/migrations/'))).toBe(false);
  });

  it('should find no citation outside the pending files', () => {
    expect(citations(files.filter((file) => !PENDING_FILES.includes(file)))).toEqual([]);
  });

  it('should list only pending files that exist and still cite', () => {
    const clean = PENDING_FILES.filter((file) => !files.includes(file) || citations([file]).length === 0);
    expect(clean, 'remove these from PENDING_FILES').toEqual([]);
  });
});
