import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The commit a checkout has out (HEAD), abbreviated to 7 characters, read from the .git folder
 * itself: running `git rev-parse` at every start cost 10-20 ms (a process spawned from the
 * server's) and needs a git binary. Handles a detached HEAD, a branch as a loose or packed ref,
 * and a worktree (.git is a file naming its folder; refs live in the common folder). Null when
 * `cwd` is not inside a checkout or the ref cannot be found.
 */
export function gitShortHashOf(cwd: string): string | null {
  const gitDir = gitDirOf(resolve(cwd));
  if (gitDir === null) return null;
  const head = readText(join(gitDir, 'HEAD'));
  if (head === null) return null;
  if (/^[0-9a-f]{40}$/.test(head)) return head.slice(0, 7);
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (ref === undefined) return null;
  const commonDir = commonDirOf(gitDir);
  const hash = readText(join(gitDir, ref)) ?? readText(join(commonDir, ref)) ?? packedRef(commonDir, ref);
  return hash !== null && /^[0-9a-f]{40}$/.test(hash) ? hash.slice(0, 7) : null;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The .git folder of the checkout holding `folder`, looking upwards as git does. */
function gitDirOf(folder: string): string | null {
  for (let current = folder; ; current = dirname(current)) {
    const candidate = join(current, '.git');
    if (existsSync(candidate)) {
      if (statSync(candidate).isDirectory()) return candidate;
      const pointer = /^gitdir: (.+)$/m.exec(readText(candidate) ?? '')?.[1];
      return pointer === undefined ? null : resolve(current, pointer.trim());
    }
    if (dirname(current) === current) return null;
  }
}

/** A worktree's refs live in the main checkout's .git (named by its `commondir` file). */
function commonDirOf(gitDir: string): string {
  const common = readText(join(gitDir, 'commondir'));
  return common === null ? gitDir : resolve(gitDir, common);
}

function packedRef(commonDir: string, ref: string): string | null {
  const packed = readText(join(commonDir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const [hash, name] = line.split(' ');
    if (name === ref && hash !== undefined) return hash;
  }
  return null;
}
