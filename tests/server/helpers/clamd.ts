import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClamdScanner } from '../../../src-server/platform/virus-scan';

/** Debian's clamav-daemon; .ci/run installs it. Without it the scanning tests report themselves skipped. */
export const CLAMD_BINARY = ['/usr/sbin/clamd', '/usr/bin/clamd'].find((path) => existsSync(path)) ?? null;
export const CLAMD_MISSING = 'ClamAV daemon not installed (apt-get install -y clamav-daemon)';

/**
 * Bytes our own offline signature matches (no signature download is possible here): a file
 * holding them is "infected" to the real scanner, as EICAR would be with the official database.
 */
export const TEST_VIRUS_MARKER = 'PORTAL-TEST-VIRUS-7f3a';

export interface LocalClamd {
  socket: string;
  /** Stops clamd; keepFolder leaves its folder so startLocalClamd(folder) brings it back on the same socket. */
  stop(options?: { keepFolder?: boolean }): Promise<void>;
  folder: string;
}

/** A real clamd on a socket of its own, loading only the test signature; ready when it answers PING. */
export async function startLocalClamd(folder?: string): Promise<LocalClamd> {
  if (CLAMD_BINARY === null) throw new Error(CLAMD_MISSING);
  const dir = folder ?? mkdtempSync(join(tmpdir(), 'portal-clamd-'));
  mkdirSync(join(dir, 'db'), { recursive: true });
  const hex = Buffer.from(TEST_VIRUS_MARKER).toString('hex');
  writeFileSync(join(dir, 'db', 'portal-test.ndb'), `Portal.Test.Signature:0:*:${hex}\n`);
  const socket = join(dir, 'clamd.sock');
  writeFileSync(
    join(dir, 'clamd.conf'),
    [
      `DatabaseDirectory ${join(dir, 'db')}`,
      `LocalSocket ${socket}`,
      `TemporaryDirectory ${dir}`,
      'Foreground yes',
      'StreamMaxLength 60M',
      'SelfCheck 0',
    ].join('\n') + '\n',
  );
  const child: ChildProcess = spawn(CLAMD_BINARY, ['-c', join(dir, 'clamd.conf')], { stdio: 'ignore' });
  const scanner = createClamdScanner({ socket, timeoutMs: 5000 });
  const stop = async (options: { keepFolder?: boolean } = {}): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (options.keepFolder === true) rmSync(socket, { force: true });
    else rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) break;
    if (existsSync(socket) && (await scanner.ping())) return { socket, stop, folder: dir };
    await sleep(100);
  }
  await stop();
  throw new Error('clamd did not start within 30 s');
}
