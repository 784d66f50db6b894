// Named imports only, so the bundler keeps the SDK's core and drops replay, feedback and tracing.
import { captureException, init } from '@sentry/react';
import { scrubData, scrubUrl } from './error-report-scrub';

/**
 * Starts the SDK (error-reporting.ts loads this chunk only when the provider configured a DSN).
 * @returns what sends one error.
 */
export function startSentry(dsn: string, environment: string, release: string): (error: unknown) => void {
  init({
    dsn,
    environment,
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
  return (error) => {
    captureException(error);
  };
}
