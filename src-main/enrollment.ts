import { readFileSync, statSync } from 'node:fs';
import { KIOSK_TOKEN_COOKIE, KioskIdentitySchema, type KioskIdentity } from '@contract/api/kiosks';
import type { KioskLog } from './kiosk-log';
import { secureStorageProblem, writeFileAtomic, type KioskTokenStore } from './kiosk-token-store';
import type { KioskSafeStorage } from './electron-surface';

/** The part of `fetch` main uses; main.ts passes Node's, tests pass it too (against a local server). */
export type KioskFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

/** Main's own requests give up after this long: Node's fetch has no timeout of its own. */
export const KIOSK_FETCH_TIMEOUT_MS = 15_000;

/** Wraps Node's fetch so a portal that accepts the connection but never answers cannot stall main. */
export function fetchWithTimeout(fetch: typeof globalThis.fetch, timeoutMs = KIOSK_FETCH_TIMEOUT_MS): KioskFetch {
  return (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

/** Which local screen explains a kiosk that cannot run as enrolled (resources/kiosk/enrollment.html). */
export type EnrollmentScreen = 'code-rejected' | 'insecure-storage' | 'enroll-again';

export type ExchangeResult =
  { ok: true; token: string; identity: KioskIdentity } | { ok: false; reason: 'rejected' | 'unreachable' | 'bad-response'; detail: string };

/** The token from the enrollment answer's Set-Cookie; the server sends it nowhere else. */
export function tokenFromSetCookie(setCookies: readonly string[]): string | null {
  for (const header of setCookies) {
    const [pair] = header.split(';');
    const separator = pair?.indexOf('=') ?? -1;
    if (!pair || separator < 0 || pair.slice(0, separator).trim() !== KIOSK_TOKEN_COOKIE) continue;
    const value = pair.slice(separator + 1).trim();
    if (value.length > 0) return value;
  }
  return null;
}

/** POST {portalUrl}/api/kiosk/enroll {code}: the kiosk identity in the body, the token in Set-Cookie. */
export async function exchangeEnrollmentCode(fetch: KioskFetch, portalUrl: string, code: string): Promise<ExchangeResult> {
  let response: Response;
  try {
    response = await fetch(`${portalUrl}/api/kiosk/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code }),
    });
  } catch (error) {
    return { ok: false, reason: 'unreachable', detail: error instanceof Error ? error.message : String(error) };
  }
  // Wrong, used and expired codes all get the same 400 from the server.
  if (response.status === 400) return { ok: false, reason: 'rejected', detail: 'the portal refused the enrollment code' };
  if (!response.ok) return { ok: false, reason: 'bad-response', detail: `status ${response.status}` };
  const token = tokenFromSetCookie(response.headers.getSetCookie());
  const identity = KioskIdentitySchema.safeParse(await response.json().catch(() => null));
  if (!token || !identity.success) return { ok: false, reason: 'bad-response', detail: 'no kiosk token or identity in the answer' };
  return { ok: true, token, identity: identity.data };
}

/** Rewrites the provisioning file without its (now used) enrollment code: temp file + rename. */
export function removeEnrollmentCode(provisioningPath: string): void {
  const json: unknown = JSON.parse(readFileSync(provisioningPath, 'utf8'));
  if (typeof json !== 'object' || json === null) return;
  const rest = Object.fromEntries(Object.entries(json).filter(([key]) => key !== 'enrollmentCode'));
  // Keep the file's permissions: IT decided who may read it.
  writeFileAtomic(provisioningPath, `${JSON.stringify(rest, null, 2)}\n`, statSync(provisioningPath).mode & 0o777);
}

export type EnrollmentState =
  | { state: 'enrolled'; token: string; identity: KioskIdentity | null }
  /** No token and no code: kiosk routes will answer 401 and the kiosk then shows enroll-again. */
  | { state: 'not-enrolled'; identity: KioskIdentity | null }
  | { state: 'blocked'; screen: EnrollmentScreen; identity: KioskIdentity | null }
  /** The portal could not be reached: the code is kept and the exchange tried again later. */
  | { state: 'unreachable' };

export interface EnrollmentDeps {
  fetch: KioskFetch;
  portalUrl: string;
  enrollmentCode: string | null;
  provisioningPath: string | null;
  store: KioskTokenStore;
  safeStorage: KioskSafeStorage;
  platform: string;
  log: KioskLog;
}

/**
 * At start: use the stored token, else exchange the provisioning file's one-time code. Secure
 * storage is checked BEFORE the exchange, so a machine that cannot keep the token secret does
 * not burn the code. The code and token never reach the log.
 */
export async function ensureEnrollment(deps: EnrollmentDeps): Promise<EnrollmentState> {
  const { store, log } = deps;
  const identity = store.readIdentity();
  const stored = store.readToken();
  if (stored) return { state: 'enrolled', token: stored, identity };
  const problem = secureStorageProblem(deps.safeStorage, deps.platform);
  if (problem) {
    log.error(`[enrollment] refusing to store the kiosk token: ${problem}; the kiosk is not enrolled`);
    return { state: 'blocked', screen: 'insecure-storage', identity };
  }
  if (!deps.enrollmentCode) {
    log.warn('[enrollment] no stored kiosk token and no enrollmentCode in the provisioning file');
    return { state: 'not-enrolled', identity };
  }
  const exchange = await exchangeEnrollmentCode(deps.fetch, deps.portalUrl, deps.enrollmentCode);
  if (!exchange.ok) {
    if (exchange.reason === 'unreachable') {
      log.warn(`[enrollment] portal unreachable, will try the code again: ${exchange.detail}`);
      return { state: 'unreachable' };
    }
    log.error(`[enrollment] enrollment failed (${exchange.detail}); ask a kiosk administrator for a new code`);
    return { state: 'blocked', screen: 'code-rejected', identity };
  }
  const saved = store.saveToken(exchange.token);
  if (!saved.ok) {
    log.error(`[enrollment] refusing to store the kiosk token: ${saved.problem}`);
    return { state: 'blocked', screen: 'insecure-storage', identity: exchange.identity };
  }
  store.saveIdentity(exchange.identity);
  if (deps.provisioningPath) {
    try {
      removeEnrollmentCode(deps.provisioningPath);
    } catch (error) {
      // The code is spent on the server anyway; a read-only file only means a stale line in it.
      log.warn(`[enrollment] could not remove the used code from ${deps.provisioningPath}: ${String(error)}`);
    }
  }
  log.info(
    `[enrollment] enrolled as "${exchange.identity.name}"${exchange.identity.clinicSlug ? ` (${exchange.identity.clinicSlug})` : ''}`,
  );
  return { state: 'enrolled', token: exchange.token, identity: exchange.identity };
}
