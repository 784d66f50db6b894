import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureEnrollment, fetchWithTimeout, tokenFromSetCookie, type EnrollmentDeps } from '../../src-main/enrollment';
import { createTokenStore, TOKEN_FILE, IDENTITY_FILE } from '../../src-main/kiosk-token-store';
import { FakeSafeStorage, MemoryLog } from './helpers/fake-electron';

/**
 * The enrollment exchange against a real HTTP server standing in for the portal: it accepts one
 * code once, answers the identity and sets the token only as the __Host- cookie, like
 * src-server/modules/kiosks/routes.ts.
 */
const CODE = '7KQ3-M9XD';
const TOKEN = 'kiosk-token-SENTINEL-0123456789abcdef';
const IDENTITY = { name: 'Parramatta lobby 1', clinicSlug: 'parramatta', clinicName: 'Parramatta' };

let server: Server;
let portalUrl: string;
let enrollCalls: unknown[];
let codeUsed: boolean;
let dir: string;

beforeEach(async () => {
  enrollCalls = [];
  codeUsed = false;
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/api/kiosk/enroll') {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as { code?: string };
      enrollCalls.push(parsed);
      if (parsed.code !== CODE || codeUsed) {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'bad_request', message: 'no' }));
        return;
      }
      codeUsed = true;
      response.setHeader('set-cookie', [
        'other=1; Path=/',
        `__Host-portal_kiosk=${TOKEN}; Path=/; Expires=Tue, 31 Dec 2030 23:59:59 GMT; HttpOnly; Secure; SameSite=Strict`,
      ]);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(IDENTITY));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  portalUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(tmpdir(), 'kiosk-enroll-'));
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function setUp(options: { code?: string | null; platform?: string } = {}) {
  const safeStorage = new FakeSafeStorage();
  const log = new MemoryLog();
  const provisioningPath = path.join(dir, 'kiosk.json');
  writeFileSync(
    provisioningPath,
    JSON.stringify({ portalUrl, clinicSlug: 'parramatta', ...(options.code === null ? {} : { enrollmentCode: options.code ?? CODE }) }),
  );
  const userData = mkdtempSync(path.join(dir, 'user-data-'));
  const platform = options.platform ?? 'linux';
  const deps = (): EnrollmentDeps => ({
    fetch: (url, init) => fetch(url, init),
    portalUrl,
    enrollmentCode: (JSON.parse(readFileSync(provisioningPath, 'utf8')) as { enrollmentCode?: string }).enrollmentCode ?? null,
    provisioningPath,
    store: createTokenStore({ safeStorage, platform, directory: userData }),
    safeStorage,
    platform,
    log,
  });
  return { safeStorage, log, provisioningPath, userData, deps };
}

describe('ensureEnrollment', () => {
  it('should exchange the code, store the token encrypted, and remove the code from the provisioning file', async () => {
    const { deps, log, provisioningPath, userData, safeStorage } = setUp();
    chmodSync(provisioningPath, 0o640);
    await expect(ensureEnrollment(deps())).resolves.toEqual({ state: 'enrolled', token: TOKEN, identity: IDENTITY });
    expect(enrollCalls).toEqual([{ code: CODE }]);

    const stored = readFileSync(path.join(userData, TOKEN_FILE));
    expect(stored.toString('latin1')).not.toContain(TOKEN);
    expect(safeStorage.decryptString(stored)).toBe(TOKEN);
    expect(JSON.parse(readFileSync(path.join(userData, IDENTITY_FILE), 'utf8'))).toEqual(IDENTITY);

    expect(JSON.parse(readFileSync(provisioningPath, 'utf8'))).toEqual({ portalUrl, clinicSlug: 'parramatta' });
    expect(statSync(provisioningPath).mode & 0o777).toBe(0o640);
    expect(statSync(path.join(userData, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(log.text()).toContain('[enrollment] enrolled as "Parramatta lobby 1" (parramatta)');
    expect(log.text()).not.toContain(TOKEN);
    expect(log.text()).not.toContain(CODE);
  });

  it('should use the stored token at the next start without asking the portal again', async () => {
    const { deps } = setUp();
    await ensureEnrollment(deps());
    await expect(ensureEnrollment(deps())).resolves.toEqual({ state: 'enrolled', token: TOKEN, identity: IDENTITY });
    expect(enrollCalls).toHaveLength(1);
  });

  it.each([
    ['Linux with only the basic_text backend', 'linux', { backend: 'basic_text' }],
    ['no OS encryption at all', 'win32', { available: false }],
  ])('should refuse to enroll on %s, before spending the code', async (_name, platform, settings) => {
    const { deps, safeStorage, log, provisioningPath, userData } = setUp({ platform });
    Object.assign(safeStorage, settings);
    await expect(ensureEnrollment(deps())).resolves.toEqual({ state: 'blocked', screen: 'insecure-storage', identity: null });
    expect(enrollCalls).toEqual([]);
    expect(existsSync(path.join(userData, TOKEN_FILE))).toBe(false);
    expect(JSON.parse(readFileSync(provisioningPath, 'utf8'))).toMatchObject({ enrollmentCode: CODE });
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: expect.stringContaining('refusing to store the kiosk token') }),
    );
  });

  it('should not trust a stored token once the only backend is basic_text, and never write plaintext', async () => {
    const { deps, safeStorage, userData } = setUp();
    await ensureEnrollment(deps());
    safeStorage.backend = 'basic_text';
    const store = createTokenStore({ safeStorage, platform: 'linux', directory: userData });
    expect(store.readToken()).toBeNull();
    expect(store.saveToken('another-SENTINEL')).toEqual({ ok: false, problem: expect.stringContaining('basic_text') });
    for (const name of readdirSync(userData)) expect(readFileSync(path.join(userData, name), 'latin1')).not.toMatch(/SENTINEL/);
  });

  it('should show the code-rejected screen and keep the file when the code was already used', async () => {
    const first = setUp();
    await ensureEnrollment(first.deps());
    // Another kiosk (fresh user data) provisioned with the same, spent code.
    const second = setUp();
    await expect(ensureEnrollment(second.deps())).resolves.toEqual({ state: 'blocked', screen: 'code-rejected', identity: null });
    expect(JSON.parse(readFileSync(second.provisioningPath, 'utf8'))).toMatchObject({ enrollmentCode: CODE });
    expect(second.log.lines).toContainEqual({
      level: 'error',
      message: '[enrollment] enrollment failed (the portal refused the enrollment code); ask a kiosk administrator for a new code',
      error: undefined,
    });
  });

  it('should keep the code and say unreachable when the portal cannot be reached', async () => {
    const { deps, provisioningPath } = setUp();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server = createServer();
    await expect(ensureEnrollment(deps())).resolves.toEqual({ state: 'unreachable' });
    expect(JSON.parse(readFileSync(provisioningPath, 'utf8'))).toMatchObject({ enrollmentCode: CODE });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it('should report not-enrolled with neither a stored token nor a code', async () => {
    const { deps } = setUp({ code: null });
    await expect(ensureEnrollment(deps())).resolves.toEqual({ state: 'not-enrolled', identity: null });
    expect(enrollCalls).toEqual([]);
  });
});

describe('fetchWithTimeout', () => {
  it('should give up on a portal that accepts the connection but never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/kiosk/enroll`;
    const started = Date.now();
    await expect(fetchWithTimeout(fetch, 200)(url, { method: 'POST', headers: {}, body: '{}' })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});

describe('tokenFromSetCookie', () => {
  it('should read only the __Host-portal_kiosk cookie', () => {
    expect(tokenFromSetCookie(['a=b', '__Host-portal_kiosk=abc; Path=/; HttpOnly'])).toBe('abc');
    expect(tokenFromSetCookie(['portal_kiosk=abc', '__Host-portal_kiosk=; Path=/'])).toBeNull();
    expect(tokenFromSetCookie(['x__Host-portal_kiosk=abc'])).toBeNull();
  });
});
