import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from '../../../src-server/db/data-dir-lock';

/** A real process that stays alive until killed, to stand in for another server. */
function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
}

function writeLock(dir: string, owner: { pid: number; hostname?: string; startedAt?: string }): void {
  writeFileSync(join(dir, LOCK_FILE_NAME), JSON.stringify({ hostname: hostname(), startedAt: new Date().toISOString(), ...owner }));
}

describe('acquireDataDirLock', () => {
  let dir = '';
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-lock-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the lock file with our pid and removes it on release', () => {
    const lock = acquireDataDirLock(join(dir, 'new-folder'));
    const content: unknown = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(content).toMatchObject({ pid: process.pid, hostname: hostname() });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lock.release();
  });

  it('refuses while another live process holds it, naming that pid and the folder', () => {
    const other = sleeper();
    children.push(other);
    if (other.pid === undefined) throw new Error('no pid');
    writeLock(dir, { pid: other.pid });
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(
      `Another portal server (pid ${other.pid}) is already using DATA_DIR ${dir}; stop it or set DATA_DIR to another folder`,
    );
    // The live owner's lock is untouched.
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: other.pid });
  });

  it('takes over the lock of a process that has died (crash, kill -9)', async () => {
    const dead = sleeper();
    const pid = dead.pid;
    if (pid === undefined) throw new Error('no pid');
    await new Promise<void>((resolve) => {
      dead.once('exit', () => resolve());
      dead.kill('SIGKILL');
    });
    writeLock(dir, { pid });
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('takes over a lock whose pid now belongs to a process that started after the lock was written (pid reuse)', () => {
    const other = sleeper();
    children.push(other);
    if (other.pid === undefined) throw new Error('no pid');
    writeLock(dir, { pid: other.pid, startedAt: '2001-01-01T00:00:00.000Z' });
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('treats a lock from another host as held (it cannot be checked from here)', () => {
    writeLock(dir, { pid: 1, hostname: 'some-other-host' });
    expect(() => acquireDataDirLock(dir)).toThrow(/pid 1 on some-other-host/);
  });

  it('takes over an old unreadable lock file (left by a crash while it was being written)', () => {
    const path = join(dir, LOCK_FILE_NAME);
    writeFileSync(path, 'garbage');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('never removes a lock that is no longer ours', () => {
    const lock = acquireDataDirLock(dir);
    writeLock(dir, { pid: 424242 });
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(true);
  });

  it('recovers from a takeover that was interrupted long ago', () => {
    mkdirSync(join(dir, `${LOCK_FILE_NAME}.takeover`));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, `${LOCK_FILE_NAME}.takeover`), old, old);
    writeLock(dir, { pid: process.pid });
    const lock = acquireDataDirLock(dir);
    expect(existsSync(join(dir, `${LOCK_FILE_NAME}.takeover`))).toBe(false);
    lock.release();
  });
});
