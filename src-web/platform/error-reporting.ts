import type { IntegrationConfig } from '@contract/api/config';

type Reporter = (error: unknown) => void;
let reporter: Reporter | null = null;

/**
 * Starts error reporting when the provider configured a DSN. The SDK (and the scrubbing of what it
 * sends) is imported only then, so a portal without one downloads none of it.
 */
export async function initErrorReporting(integration: IntegrationConfig, release: string): Promise<void> {
  const dsn = integration.errorReportingDsn;
  if (!dsn) return;
  const { startSentry } = await import('./sentry');
  reporter = startSentry(dsn, integration.errorReportingEnvironment, release);
}

/** Sends an error caught by an error boundary; a no-op when reporting is off. */
export function reportError(error: unknown): void {
  reporter?.(error);
}
