// What an error report must not carry (platform/sentry.ts scrubs with these before anything is sent).

/** Segments followed by a secret booking key in our routes (src-web/paths.ts). */
const KEYED_SEGMENTS = new Set(['appointments', 'pending', 'booking-requests', 'a', 'br']);

/**
 * Removes what must never leave the browser in an error report: booking keys in paths
 * (they grant access: docs/rules/security.md#error-reports) and every query string (authentication
 * carries dateOfBirth, referrer links carry imsec).
 */
export function scrubUrl(url: string): string {
  const cut = url.search(/[?#]/);
  const base = cut === -1 ? url : url.slice(0, cut);
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]+)?(.*)$/i.exec(base);
  const origin = match?.[1] ?? '';
  const parts = (match?.[2] ?? base).split('/');
  const scrubbed = parts.map((part, index) => {
    const previous = parts[index - 1];
    const keyed = previous !== undefined && KEYED_SEGMENTS.has(previous) && part !== 'pending' && part !== '';
    return keyed ? '[key]' : part;
  });
  return origin + scrubbed.join('/');
}

export function scrubData(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!data) return data;
  const copy: Record<string, unknown> = { ...data };
  for (const field of ['url', 'from', 'to']) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = scrubUrl(value);
  }
  return copy;
}
