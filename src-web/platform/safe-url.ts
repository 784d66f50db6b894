/**
 * A same-origin path we may navigate to: starts with one '/', not '//' or '/\' (which
 * browsers treat as another host), no scheme, no control characters.
 */
export function safeInternalPath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const value = raw.trim();
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f\\]/.test(value)) {
    return null;
  }
  return value;
}

/**
 * A redirect target from a query parameter: a same-origin path, or an absolute http(s)
 * URL. Everything else (javascript:, data:, vbscript:, protocol-relative //host) is refused.
 */
export function safeRedirectUrl(raw: string | null | undefined): string | null {
  const path = safeInternalPath(raw);
  if (path) return path;
  if (!raw) return null;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** True for an absolute http(s) URL, which we render as a plain link rather than a router link. */
export function isExternalUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}
