/**
 * Whether the portal may offer analytics (docs/rules/analytics.md): GA4 when `analyticsEnabled` with
 * an `analyticsId`, Tag Manager when `trackingEnabled` with a `trackingId`. Zod-free: the shell's
 * footer asks it on the booking home.
 */

export interface AnalyticsIds {
  /** GA4 measurement id (G-…), or null. */
  ga4: string | null;
  /** Tag Manager container id (GTM-…), or null. */
  gtm: string | null;
}

export interface AnalyticsSettings {
  analyticsEnabled: boolean;
  analyticsId: string | null;
  trackingEnabled: boolean;
  trackingId: string | null;
}

/** The ids to load after consent; null when neither is on with an id (then no banner either). */
export function analyticsIdsOf(app: AnalyticsSettings): AnalyticsIds | null {
  const ga4 = app.analyticsEnabled && app.analyticsId ? app.analyticsId : null;
  const gtm = app.trackingEnabled && app.trackingId ? app.trackingId : null;
  return ga4 === null && gtm === null ? null : { ga4, gtm };
}

/**
 * Staff, referrer, kiosk, check-in and tool pages (first segment `staff`, `referrer…`, `kiosk…`,
 * `check-in`, `image-viewer-access`, `preview-email`, `demo-viewer`, `dev`, and `/iframe…`), and the
 * appointment's kiosk page: never analytics, never the banner. One expression, as the booking home carries it.
 */
const NO_ANALYTICS_PATH =
  /^\/(?:iframe|staff|check-in|preview-email|dev|image-viewer-access|demo-viewer|referrer|kiosk)(?:[-/]|$)|\/appointments\/[^/]+\/kiosk\/?$/;

/** Whether the page at `pathname` is a patient page of the website, where analytics may run. */
export function analyticsAllowedOn(pathname: string): boolean {
  return !NO_ANALYTICS_PATH.test(pathname);
}
