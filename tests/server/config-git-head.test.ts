import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitShortHashOf } from '../../src-server/config-git-head';

// The hash is read from the .git folder (src-server/config-git-head.ts); real git makes each
// kind of checkout and says what the answer must be.

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();
}

function repository(): { dir: string; head: string } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-git-head-'));
  folders.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'file.txt'), 'one');
  git(dir, 'add', 'file.txt');
  git(dir, 'commit', '-q', '-m', 'one');
  return { dir, head: git(dir, 'rev-parse', 'HEAD') };
}

describe('gitShortHashOf', () => {
  it('reads a branch held as a loose ref, from the checkout and from a folder inside it', () => {
    const { dir, head } = repository();
    mkdirSync(join(dir, 'server', 'dist'), { recursive: true });
    expect(gitShortHashOf(dir)).toBe(head.slice(0, 7));
    expect(gitShortHashOf(join(dir, 'server', 'dist'))).toBe(head.slice(0, 7));
  });

  it('reads a packed ref and a detached HEAD', () => {
    const { dir, head } = repository();
    git(dir, 'pack-refs', '--all');
    expect(gitShortHashOf(dir)).toBe(head.slice(0, 7));
    writeFileSync(join(dir, 'file.txt'), 'two');
    git(dir, 'commit', '-q', '-am', 'two');
    git(dir, 'checkout', '-q', '--detach', head);
    expect(gitShortHashOf(dir)).toBe(head.slice(0, 7));
  });

  it("reads a worktree's HEAD through its .git file and the main checkout's refs", () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'file.txt'), 'two');
    git(dir, 'commit', '-q', '-am', 'two');
    const worktree = join(dir, '..', `${join(dir).split('/').pop()}-tree`);
    folders.push(worktree);
    git(dir, 'worktree', 'add', '-q', '-b', 'other', worktree, 'HEAD~1');
    expect(gitShortHashOf(worktree)).toBe(git(worktree, 'rev-parse', 'HEAD').slice(0, 7));
    expect(gitShortHashOf(worktree)).not.toBe(gitShortHashOf(dir));
  });

  it('answers null outside a checkout and for a branch with no commit yet', () => {
    const outside = mkdtempSync(join(tmpdir(), 'portal-git-none-'));
    folders.push(outside);
    // tmpdir() itself is not inside a checkout on these machines.
    expect(gitShortHashOf(outside)).toBeNull();
    git(outside, 'init', '-q', '-b', 'main');
    expect(gitShortHashOf(outside)).toBeNull();
  });
});
