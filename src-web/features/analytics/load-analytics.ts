import type { AnalyticsIds } from '@contract/shell/analytics';

/**
 * Loads GA4 (gtag.js) and/or Tag Manager (gtm.js) after the visitor allowed analytics
 * (docs/rules/analytics.md). Nothing here runs before that: the consent banner imports this chunk
 * only on "Allow analytics". The scripts come from the origin the CSP then allows
 * (src-server/platform/plugins/security-headers.ts); no inline script is needed.
 */

export const GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';
export const GTM_SCRIPT_URL = 'https://www.googletagmanager.com/gtm.js';
/** The share of page loads whose timings GA4 samples (docs/rules/analytics.md#constants). */
export const SITE_SPEED_SAMPLE_RATE = 5;
/** What the booking flow dispatches on window after each step change (features/booking/booking-step-reporter.ts). */
export const BOOKING_STEP_EVENT = 'portal:booking-step';
/** The event name the booking steps are reported under, in GA4 and in the Tag Manager data layer. */
export const BOOKING_STEP_ANALYTICS_EVENT = 'booking_step';

type AnalyticsWindow = Window & { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };

/** Per window: the booking-step listener while reporting (null once withdrawn; the scripts stay loaded). */
const loaded = new WeakMap<Window, { stop: (() => void) | null }>();

function addScript(win: Window, src: string): void {
  const script = win.document.createElement('script');
  script.async = true;
  script.src = src;
  script.dataset.portalAnalytics = 'true';
  win.document.head.appendChild(script);
}

/** gtag() as Google's snippet defines it: it must push the arguments object itself, not an array. */
function gtagOf(win: AnalyticsWindow): (...args: unknown[]) => void {
  const dataLayer = (win.dataLayer ??= []);
  win.gtag ??= function gtag() {
    // eslint-disable-next-line prefer-rest-params -- gtag.js reads Arguments objects from the data layer
    dataLayer.push(arguments);
  };
  return win.gtag;
}

/** Reports the booking steps as events; returns the way to stop. */
function reportBookingSteps(win: AnalyticsWindow, ids: AnalyticsIds, gtag: (...args: unknown[]) => void): () => void {
  const onStep = (event: Event) => {
    const step = (event as CustomEvent<{ step?: unknown }>).detail?.step;
    if (typeof step !== 'number') return;
    if (ids.ga4 !== null) gtag('event', BOOKING_STEP_ANALYTICS_EVENT, { step });
    if (ids.gtm !== null) win.dataLayer?.push({ event: BOOKING_STEP_ANALYTICS_EVENT, booking_step: step });
  };
  win.addEventListener(BOOKING_STEP_EVENT, onStep);
  return () => win.removeEventListener(BOOKING_STEP_EVENT, onStep);
}

/** Loads the configured scripts once per window and reports the booking steps; idempotent. */
export function loadAnalytics(win: Window, ids: AnalyticsIds, now: () => Date = () => new Date()): void {
  const analyticsWindow = win as AnalyticsWindow;
  const gtag = gtagOf(analyticsWindow);
  const state = loaded.get(win);
  if (state !== undefined) {
    // Allowed again after "Only necessary" in the same page: collection resumes, no second script.
    if (state.stop === null) {
      gtag('consent', 'update', { analytics_storage: 'granted' });
      state.stop = reportBookingSteps(analyticsWindow, ids, gtag);
    }
    return;
  }
  // Consent mode: everything denied by default, analytics granted because the visitor allowed it;
  // advertising stays denied (the portal asks only about analytics).
  gtag('consent', 'default', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied' });
  gtag('consent', 'update', { analytics_storage: 'granted' });
  if (ids.ga4 !== null) {
    gtag('js', now());
    gtag('config', ids.ga4, { site_speed_sample_rate: SITE_SPEED_SAMPLE_RATE });
    addScript(win, `${GTAG_SCRIPT_URL}?id=${encodeURIComponent(ids.ga4)}`);
  }
  if (ids.gtm !== null) {
    analyticsWindow.dataLayer?.push({ 'gtm.start': now().getTime(), event: 'gtm.js' });
    addScript(win, `${GTM_SCRIPT_URL}?id=${encodeURIComponent(ids.gtm)}`);
  }
  loaded.set(win, { stop: reportBookingSteps(analyticsWindow, ids, gtag) });
}

/**
 * "Only necessary" after "Allow" in the same page: consent mode stops collection, the booking steps
 * are no longer reported, and GA's cookies are removed. The scripts already running go with the next page load.
 */
export function withdrawAnalytics(win: Window): void {
  const state = loaded.get(win);
  if (state?.stop == null) return;
  gtagOf(win as AnalyticsWindow)('consent', 'update', { analytics_storage: 'denied' });
  state.stop();
  state.stop = null;
  for (const part of win.document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim() ?? '';
    if (name === '_ga' || name.startsWith('_ga_')) win.document.cookie = `${name}=; max-age=0; path=/`;
  }
}
