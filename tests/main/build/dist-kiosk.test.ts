import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script behind `npm run dist:kiosk`; it has no type declarations.
import * as script from '../../../scripts/dist-kiosk.mjs';
// @ts-expect-error -- the shared helpers of `npm run kiosk`; no type declarations either.
import { electronGetCachePath as cachePathUntyped } from '../../../scripts/electron-binary.mjs';

/**
 * `npm run dist:kiosk` with a fake electron package (version and checksums of fake zips), a
 * temporary cache folder and an injected download, so both paths run here: the zips found or
 * downloaded, then the build; or the "cannot download" message and nothing built.
 */

type Run = (command: string, args: string[]) => number;
type DownloadRequest = { version: string; platform: string; arch: string; checksums: Record<string, string> };
type Download = (request: DownloadRequest) => Promise<string>;
const { distKiosk, electronCacheRoot, electronZipName, selectTargets } = script as {
  selectTargets: (argv: string[], host: string) => { platform: string }[];
  distKiosk: (options: {
    argv?: string[];
    hostPlatform?: string;
    electronDir: string;
    env: Record<string, string | undefined>;
    cacheRoot: string;
    download: Download;
    run: Run;
    log: (line: string) => void;
    error: (line: string) => void;
  }) => Promise<number>;
  electronCacheRoot: (env: Record<string, string | undefined>, platform: string, home: string) => string;
  electronZipName: (version: string, platform: string, arch: string) => string;
};

const electronGetCachePath = cachePathUntyped as (cacheRoot: string, url: string) => string;
const VERSION = '45.5.0';
const LINUX_ZIP = `electron-v${VERSION}-linux-x64.zip`;
const WIN_ZIP = `electron-v${VERSION}-win32-x64.zip`;
const zipBytes = (name: string) => `fake zip ${name}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const folders: string[] = [];

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** node_modules/electron as far as the script reads it: package.json and checksums.json. */
function electronPackage(): string {
  const dir = tempDir('electron-pkg-');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: VERSION }));
  const checksums = Object.fromEntries([LINUX_ZIP, WIN_ZIP].map((name) => [name, sha256(zipBytes(name))]));
  writeFileSync(path.join(dir, 'checksums.json'), JSON.stringify(checksums));
  return dir;
}

/** A download that writes the right bytes into its own folder (as @electron/get's cache would). */
function workingDownload(requests: string[]): Download {
  const store = tempDir('electron-get-');
  return async ({ version, platform, arch }) => {
    const name = `electron-v${version}-${platform}-${arch}.zip`;
    requests.push(name);
    const file = path.join(store, name);
    writeFileSync(file, zipBytes(name));
    return file;
  };
}

/** What a machine without access to Electron's releases gets from @electron/get. */
const offlineDownload: Download = async () => {
  const error = new Error('getaddrinfo ENOTFOUND github.com\n    at GetAddrInfoReqWrap.onlookup (node:dns:120:26)');
  throw error;
};

async function runDist(options: {
  download: Download;
  argv?: string[];
  cacheRoot?: string;
  env?: Record<string, string>;
  statuses?: number[];
}) {
  const calls: string[] = [];
  const out: string[] = [];
  const errors: string[] = [];
  const cacheRoot = options.cacheRoot ?? tempDir('electron-cache-');
  const status = await distKiosk({
    argv: options.argv,
    hostPlatform: 'linux',
    electronDir: electronPackage(),
    env: options.env ?? {},
    cacheRoot,
    download: options.download,
    run: (command, args) => {
      calls.push([command, ...args].join(' '));
      return options.statuses?.shift() ?? 0;
    },
    log: (line) => out.push(line),
    error: (line) => errors.push(line),
  });
  return { status, calls, out, errors, cacheRoot };
}

describe('npm run dist:kiosk', () => {
  it('should download the missing zips, verify them, and build every installer from them', async () => {
    const requests: string[] = [];
    const { status, calls, cacheRoot } = await runDist({ download: workingDownload(requests) });
    expect(status).toBe(0);
    expect(requests).toEqual([LINUX_ZIP, WIN_ZIP]);
    expect(readFileSync(path.join(cacheRoot, WIN_ZIP), 'utf8')).toBe(zipBytes(WIN_ZIP));
    expect(calls).toEqual([
      'electron-vite build',
      `electron-builder --linux AppImage deb --win nsis --publish never --config.electronDist=${cacheRoot}`,
    ]);
  });

  it('should use a zip IT placed in the cache folder without downloading it', async () => {
    const cacheRoot = tempDir('electron-cache-');
    writeFileSync(path.join(cacheRoot, WIN_ZIP), zipBytes(WIN_ZIP));
    const requests: string[] = [];
    const { status, calls } = await runDist({ download: workingDownload(requests), cacheRoot, argv: ['--win'] });
    expect(status).toBe(0);
    expect(requests).toEqual([]);
    expect(calls[1]).toBe(`electron-builder --win nsis --publish never --config.electronDist=${cacheRoot}`);
  });

  it('should say exactly what to fetch and where to put it, without a stack trace, and build nothing', async () => {
    const { status, calls, errors, cacheRoot } = await runDist({ download: offlineDownload });
    expect(status).toBe(1);
    expect(calls).toEqual([]);
    expect(errors).toHaveLength(1);
    const message = errors[0] ?? '';
    expect(message).toContain(`Electron ${VERSION}'s release zips are missing; nothing was built.`);
    expect(message).toContain(`${LINUX_ZIP}: the download failed: getaddrinfo ENOTFOUND github.com`);
    expect(message).toContain(`https://github.com/electron/electron/releases/download/v${VERSION}/${WIN_ZIP}`);
    expect(message).toContain(`into ${cacheRoot}`);
    expect(message).toContain('ELECTRON_MIRROR');
    expect(message).toContain('electron_config_cache');
    expect(message).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(cacheRoot, LINUX_ZIP))).toBe(false);
  });

  it('should name the mirror URL when ELECTRON_MIRROR is set', async () => {
    const { errors } = await runDist({
      download: offlineDownload,
      argv: ['--linux'],
      env: { ELECTRON_MIRROR: 'https://mirror.example/electron' },
    });
    expect(errors[0]).toContain(`https://mirror.example/electron/v${VERSION}/${LINUX_ZIP}`);
    expect(errors[0]).toContain('release zip is missing');
    expect(errors[0]).not.toContain(WIN_ZIP);
  });

  it('should refuse a placed zip whose sha256 is not the release file', async () => {
    const cacheRoot = tempDir('electron-cache-');
    writeFileSync(path.join(cacheRoot, LINUX_ZIP), 'truncated');
    const requests: string[] = [];
    const { status, calls, errors } = await runDist({ download: workingDownload(requests), cacheRoot, argv: ['--linux'] });
    expect(status).toBe(1);
    expect(calls).toEqual([]);
    expect(requests).toEqual([]);
    expect(errors[0]).toContain(`${path.join(cacheRoot, LINUX_ZIP)} is not Electron's release file (its sha256 differs); delete it`);
  });

  it('should stop at the first failing step with its exit code', async () => {
    const { status, calls, errors } = await runDist({ download: workingDownload([]), statuses: [2] });
    expect(status).toBe(2);
    expect(calls).toEqual(['electron-vite build']);
    expect(errors).toEqual(['dist:kiosk: electron-vite failed (exit 2).']);
  });

  it('should refuse an unknown option before doing anything', async () => {
    const requests: string[] = [];
    const { status, calls, errors } = await runDist({ download: workingDownload(requests), argv: ['--mac'] });
    expect(status).toBe(2);
    expect(requests).toEqual([]);
    expect(calls).toEqual([]);
    expect(errors[0]).toMatch(/unknown option --mac/);
  });

  it('should ask for npm ci when electron is not installed', async () => {
    const errors: string[] = [];
    const status = await distKiosk({
      electronDir: tempDir('no-electron-'),
      env: {},
      cacheRoot: tempDir('electron-cache-'),
      download: offlineDownload,
      run: () => 0,
      log: () => {},
      error: (line) => errors.push(line),
    });
    expect(status).toBe(1);
    expect(errors[0]).toContain('npm ci');
  });
});

describe('targets', () => {
  it('should build what the command line asks for, else every target (only NSIS on a Windows host)', () => {
    const platforms = (argv: string[], host: string) => selectTargets(argv, host).map((target) => target.platform);
    expect(platforms([], 'linux')).toEqual(['linux', 'win32']);
    expect(platforms([], 'win32')).toEqual(['win32']);
    expect(platforms(['--linux'], 'win32')).toEqual(['linux']);
    expect(platforms(['--win', '--linux'], 'linux')).toEqual(['linux', 'win32']);
  });
});

describe('electron cache folder and zip names', () => {
  it('should follow @electron/get: electron_config_cache first, else the per-OS cache', () => {
    expect(electronCacheRoot({ electron_config_cache: '/srv/zips' }, 'linux', '/home/it')).toBe('/srv/zips');
    expect(electronCacheRoot({}, 'linux', '/home/it')).toBe(path.join('/home/it', '.cache', 'electron'));
    expect(electronCacheRoot({ XDG_CACHE_HOME: '/var/cache/it' }, 'linux', '/home/it')).toBe(path.join('/var/cache/it', 'electron'));
    expect(electronCacheRoot({}, 'darwin', '/Users/it')).toBe(path.join('/Users/it', 'Library', 'Caches', 'electron'));
    expect(electronCacheRoot({ LOCALAPPDATA: 'C:\\Users\\it\\AppData\\Local' }, 'win32', 'C:\\Users\\it')).toBe(
      path.join('C:\\Users\\it\\AppData\\Local', 'electron', 'Cache'),
    );
  });

  it("should name zips as Electron's releases do, for the installed version", () => {
    expect(electronZipName('45.5.0', 'win32', 'x64')).toBe('electron-v45.5.0-win32-x64.zip');
    const installed = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../../node_modules/electron/package.json'), 'utf8'),
    ) as {
      version: string;
    };
    const checksums = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../../node_modules/electron/checksums.json'), 'utf8'),
    ) as Record<string, string>;
    // The names the script asks for are the ones electron's own checksum list knows.
    expect(checksums[electronZipName(installed.version, 'linux', 'x64')]).toMatch(/^[0-9a-f]{64}$/);
    expect(checksums[electronZipName(installed.version, 'win32', 'x64')]).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the real download (@electron/get) against a local mirror', () => {
  const projectModules = path.resolve(import.meta.dirname, '../../../node_modules');
  let server: Server | undefined;

  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  /** A mirror on 127.0.0.1 holding the fake linux zip under v<version>/, as Electron's releases do. */
  async function startMirror(): Promise<string> {
    server = createServer((request, response) => {
      if (request.url === `/v${VERSION}/${LINUX_ZIP}`) response.end(zipBytes(LINUX_ZIP));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  /** The fake package, with the project's node_modules beside it so it resolves @electron/get. */
  function electronPackageWithGet(): string {
    const dir = electronPackage();
    symlinkSync(projectModules, path.join(dir, 'node_modules'), 'dir');
    return dir;
  }

  async function realDist(argv: string[], mirror: string, cacheRoot = tempDir('electron-cache-')) {
    const calls: string[] = [];
    const errors: string[] = [];
    const status = await distKiosk({
      argv,
      electronDir: electronPackageWithGet(),
      env: { ELECTRON_MIRROR: mirror },
      cacheRoot,
      // @ts-expect-error -- undefined selects the script's default download (the real @electron/get).
      download: undefined,
      run: (command, args) => calls.push([command, ...args].join(' ')) && 0,
      log: () => {},
      error: (line) => errors.push(line),
    });
    return { status, calls, errors, cacheRoot };
  }

  it('should download a zip, check its sha256 and hand it to electron-builder', async () => {
    const { status, calls, errors, cacheRoot } = await realDist(['--linux'], await startMirror());
    expect(errors).toEqual([]);
    expect(status).toBe(0);
    expect(readFileSync(path.join(cacheRoot, LINUX_ZIP), 'utf8')).toBe(zipBytes(LINUX_ZIP));
    expect(calls[1]).toContain(`--config.electronDist=${cacheRoot}`);
  });

  it("should use a zip copied into @electron/get's own cache folder, offline", async () => {
    const mirror = await startMirror();
    const cacheRoot = tempDir('electron-cache-');
    // The path the `npm run kiosk` message names: install.js and dist:kiosk read the same cache.
    const cached = electronGetCachePath(cacheRoot, `${mirror}v${VERSION}/${WIN_ZIP}`);
    mkdirSync(path.dirname(cached), { recursive: true });
    writeFileSync(cached, zipBytes(WIN_ZIP));
    const { status, errors } = await realDist(['--win'], mirror, cacheRoot);
    expect(errors).toEqual([]);
    expect(status).toBe(0);
    expect(readFileSync(path.join(cacheRoot, WIN_ZIP), 'utf8')).toBe(zipBytes(WIN_ZIP));
  });

  it('should report a mirror without the file in one line per zip', async () => {
    const mirror = await startMirror();
    const { status, calls, errors } = await realDist(['--win'], mirror);
    expect(status).toBe(1);
    expect(calls).toEqual([]);
    expect(errors[0]).toContain(`${WIN_ZIP}: the download failed:`);
    expect(errors[0]).toContain(`${mirror}v${VERSION}/${WIN_ZIP}`);
    expect(errors[0]).not.toMatch(/\n\s+at /);
  });
});
