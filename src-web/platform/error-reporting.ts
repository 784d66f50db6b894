import type { IntegrationConfig } from '@contract/api/config';

type Reporter = (error: unknown) => void;
let reporter: Reporter | null = null;

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

function scrubData(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!data) return data;
  const copy: Record<string, unknown> = { ...data };
  for (const field of ['url', 'from', 'to']) {
    const value = copy[field];
    if (typeof value === 'string') copy[field] = scrubUrl(value);
  }
  return copy;
}

/**
 * Starts error reporting when the provider configured a DSN. The SDK is imported only
 * then, so a portal without one downloads none of it.
 */
export async function initErrorReporting(integration: IntegrationConfig, release: string): Promise<void> {
  const dsn = integration.errorReportingDsn;
  if (!dsn) return;
  const Sentry = await import('./sentry');
  Sentry.init({
    dsn,
    environment: integration.errorReportingEnvironment,
    release,
    // Default data collection sends no personal data; URLs are scrubbed below.
    beforeSend(event) {
      if (event.request?.url) event.request.url = scrubUrl(event.request.url);
      if (event.transaction) event.transaction = scrubUrl(event.transaction);
      return event;
    },
    beforeBreadcrumb(breadcrumb) {
      return { ...breadcrumb, data: scrubData(breadcrumb.data) };
    },
  });
  reporter = (error) => {
    Sentry.captureException(error);
  };
}

/** Sends an error caught by an error boundary; a no-op when reporting is off. */
export function reportError(error: unknown): void {
  reporter?.(error);
}
