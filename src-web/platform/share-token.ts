/**
 * The token of a result share link (`/results/shared#<token>`, src-contract/api/result-shares.ts
 * SHARED_RESULTS_PATH): 32 random bytes in base64url, carried in the fragment so it never reaches a
 * server log. The shared results page keeps it in sessionStorage (this tab only) so a reload and
 * the return from /authentication still have it; the sign-in page sends it with the date of birth.
 * Spelled out here rather than imported from the contract so the sign-in chunk carries no zod.
 */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const STORAGE_KEY = 'pp_share_token';

/** What a link's fragment holds: a token, nothing, or something that is not a whole token (a cut-off link). */
export type FragmentToken = { kind: 'token'; token: string } | { kind: 'none' } | { kind: 'garbled' };

/** Reads a location hash ('#abc…' or ''). */
export function tokenFromFragment(hash: string): FragmentToken {
  const value = hash.replace(/^#/, '').trim();
  if (value === '') return { kind: 'none' };
  return SHARE_TOKEN_PATTERN.test(value) ? { kind: 'token', token: value } : { kind: 'garbled' };
}

/** The stored token, or null (none, not a token, or storage blocked). */
export function readShareToken(storage: Storage | null): string | null {
  try {
    const value = storage?.getItem(STORAGE_KEY) ?? null;
    return value !== null && SHARE_TOKEN_PATTERN.test(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the token for this tab; false when the browser refuses storage. */
export function storeShareToken(storage: Storage | null, token: string): boolean {
  try {
    storage?.setItem(STORAGE_KEY, token);
    return storage !== null;
  } catch {
    return false;
  }
}

/** Forgets the token (a garbled link replaces an older one). */
export function forgetShareToken(storage: Storage | null): void {
  try {
    storage?.removeItem(STORAGE_KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
}

/** window.sessionStorage, or null where the browser blocks it (reading it throws). */
export function sessionStorageOf(win: Window): Storage | null {
  try {
    return win.sessionStorage;
  } catch {
    return null;
  }
}
