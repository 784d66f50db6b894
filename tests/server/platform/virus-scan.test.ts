import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClamdScanner, parseVirusScanSettings } from '../../../src-server/platform/virus-scan';
import { CLAMD_BINARY, CLAMD_MISSING, startLocalClamd, TEST_VIRUS_MARKER, type LocalClamd } from '../helpers/clamd';

describe.skipIf(CLAMD_BINARY === null)(
  `ClamAV scanner against a real clamd${CLAMD_BINARY === null ? ` (skipped: ${CLAMD_MISSING})` : ''}`,
  () => {
    let clamd: LocalClamd;
    let work = '';
    beforeAll(async () => {
      clamd = await startLocalClamd();
      work = mkdtempSync(join(tmpdir(), 'portal-scan-'));
    }, 60_000);
    afterAll(async () => {
      await clamd?.stop();
      rmSync(work, { recursive: true, force: true });
    });

    function file(name: string, content: string | Buffer): string {
      const path = join(work, name);
      writeFileSync(path, content);
      return path;
    }

    it('answers clean for a clean file and names the signature it finds', async () => {
      const scanner = createClamdScanner({ socket: clamd.socket });
      expect(await scanner.ping()).toBe(true);
      expect(await scanner.scanFile(file('clean.pdf', '%PDF-1.4\nnothing here\n%%EOF\n'))).toEqual({ status: 'clean' });
      const infected = await scanner.scanFile(file('infected.pdf', `%PDF-1.4\n${TEST_VIRUS_MARKER}\n%%EOF\n`));
      expect(infected).toEqual({ status: 'infected', signature: expect.stringContaining('Portal.Test.Signature') });
    });

    it('streams a file larger than one chunk', async () => {
      const scanner = createClamdScanner({ socket: clamd.socket });
      const large = Buffer.alloc(3 * 1024 * 1024, 0x20);
      Buffer.from(TEST_VIRUS_MARKER).copy(large, large.length - 100);
      expect((await scanner.scanFile(file('large.bin', large))).status).toBe('infected');
    });
  },
);

describe('ClamAV scanner when the daemon is not there', () => {
  it('answers unavailable (the caller quarantines) and ping false', async () => {
    const scanner = createClamdScanner({ socket: join(tmpdir(), 'no-such-clamd.sock'), timeoutMs: 1000 });
    expect((await scanner.scanFile(__filename)).status).toBe('unavailable');
    expect(await scanner.ping()).toBe(false);
  });
});

describe('parseVirusScanSettings', () => {
  it('reads a socket path or tcp://host:port, and null when unset', () => {
    expect(parseVirusScanSettings({})).toBeNull();
    expect(parseVirusScanSettings({ CLAMAV_SOCKET: '/var/run/clamav/clamd.ctl' })).toEqual({ socket: '/var/run/clamav/clamd.ctl' });
    expect(parseVirusScanSettings({ CLAMAV_SOCKET: 'tcp://clamav:3310' })).toEqual({ socket: 'tcp://clamav:3310' });
  });

  it.each(['clamd.sock', 'tcp://clamav', 'tcp://clamav:99999', 'http://clamav:3310'])('refuses %j', (value) => {
    expect(() => parseVirusScanSettings({ CLAMAV_SOCKET: value })).toThrow(/CLAMAV_SOCKET/);
  });
});
