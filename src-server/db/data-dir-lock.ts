import { mkdirSync, openSync, readFileSync, rmSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * An exclusive lock on DATA_DIR (docs/server.md#pglite-lock). PGlite does not lock its data directory,
 * and a second process on the same directory silently loses acknowledged writes
 * (electric-sql/pglite#1106), so the server takes this lock before it opens PGlite and a second
 * server stops at once.
 *
 * The lock is a file created with O_EXCL ('wx') holding the owner's pid, host and start time.
 * A lock whose owner is gone (crash, kill -9, reboot) is stale and is taken over; the takeover
 * itself is guarded by an atomic mkdir so two starting servers cannot both take it.
 */

export const LOCK_FILE_NAME = 'server.lock';
const TAKEOVER_DIR_NAME = 'server.lock.takeover';
/** A takeover that has not finished in this time was interrupted (its process died). */
const TAKEOVER_STALE_MS = 10_000;
/** A lock file may be seen empty for the instant between create and write. */
const FRESH_LOCK_GRACE_MS = 2_000;

export interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner | null,
  ) {
    const where = owner !== null && owner.hostname !== hostname() ? ` on ${owner.hostname}` : '';
    const who = owner === null ? 'Another portal server' : `Another portal server (pid ${owner.pid}${where})`;
    super(`${who} is already using DATA_DIR ${dataDir}; stop it or set DATA_DIR to another folder`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === 'object' &&
      value !== null &&
      'pid' in value &&
      typeof value.pid === 'number' &&
      'hostname' in value &&
      typeof value.hostname === 'string' &&
      'startedAt' in value &&
      typeof value.startedAt === 'string'
    ) {
      return { pid: value.pid, hostname: value.hostname, startedAt: value.startedAt };
    }
  } catch {
    // Not JSON: treated as unknown content below.
  }
  return null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * When the process with this pid started (Linux /proc), or null where that cannot be known.
 * Used to tell a live owner from an unrelated process that reused its pid after a reboot.
 */
function processStartedAtMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime, in clock ticks since boot); fields after the ")" of the command name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const bootLine = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('btime '));
    const bootSeconds = Number(bootLine?.split(' ')[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(bootSeconds)) return null;
    // USER_HZ is 100 on every Linux we run on.
    return bootSeconds * 1000 + ticks * 10;
  } catch {
    return null;
  }
}

/** True when the owner recorded in the lock is certainly no longer running. */
function ownerIsGone(owner: LockOwner): boolean {
  // Another host's process cannot be checked from here: assume it is alive.
  if (owner.hostname !== hostname()) return false;
  // In a container the server is often pid 1 on every start: a lock with our own pid is a
  // leftover of a previous life, since this process has not taken it yet.
  if (owner.pid === process.pid) return true;
  if (!isAlive(owner.pid)) return true;
  const lockTime = Date.parse(owner.startedAt);
  const started = processStartedAtMs(owner.pid);
  // A process that started after the lock was written cannot have written it (pid reuse).
  return started !== null && Number.isFinite(lockTime) && started > lockTime + 2000;
}

function readLock(path: string): { text: string; ageMs: number } | null {
  try {
    const ageMs = Date.now() - statSync(path).mtimeMs;
    return { text: readFileSync(path, 'utf8'), ageMs };
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    throw error;
  }
}

function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/**
 * Takes the lock or throws DataDirLockedError naming the owner.
 * @param dataDir - the DATA_DIR folder; created when missing.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE_NAME);
  const takeoverPath = join(dataDir, TAKEOVER_DIR_NAME);
  const me: LockOwner = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  const content = `${JSON.stringify(me)}\n`;

  // Bounded: each round either wins, finds a live owner, or waits briefly for a racing start.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (tryCreate(path, content)) return makeLock(path, content);

    const existing = readLock(path);
    if (existing === null) continue; // released between our create and read: try again
    const owner = parseOwner(existing.text);
    if (owner === null && existing.ageMs < FRESH_LOCK_GRACE_MS) {
      sleepSync(50); // another server is writing its lock right now
      continue;
    }
    if (owner !== null && !ownerIsGone(owner)) throw new DataDirLockedError(dataDir, owner);

    // Stale (dead owner or unreadable old file): take over under the takeover mutex.
    try {
      mkdirSync(takeoverPath);
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      let takeoverAge = 0;
      try {
        takeoverAge = Date.now() - statSync(takeoverPath).mtimeMs;
      } catch {
        takeoverAge = 0;
      }
      if (takeoverAge > TAKEOVER_STALE_MS) rmSync(takeoverPath, { recursive: true, force: true });
      else sleepSync(50);
      continue;
    }
    try {
      // Still the same stale file? Then nobody took it in between, and it is ours to remove.
      const again = readLock(path);
      if (again !== null && again.text === existing.text) unlinkSync(path);
      if (tryCreate(path, content)) return makeLock(path, content);
    } finally {
      rmSync(takeoverPath, { recursive: true, force: true });
    }
  }
  throw new DataDirLockedError(dataDir, parseOwner(readLock(path)?.text ?? ''));
}

function makeLock(path: string, content: string): DataDirLock {
  let released = false;
  return {
    path,
    release(): void {
      if (released) return;
      released = true;
      // Only remove the file if it is still ours (never another server's fresh lock).
      const current = readLock(path);
      if (current !== null && current.text === content) unlinkSync(path);
    },
  };
}
