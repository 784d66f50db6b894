import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { analyticsAllowedOn } from '@contract/shell/analytics';
import { loadAnalytics } from '../../../../src-web/features/analytics/public';
import { CONSENT_MAX_AGE_MS, CONSENT_STORAGE_KEY } from '../../../../src-web/features/consent/public';
import { renderApp } from '../../helpers/render-app';
import { testConfig } from '../../helpers/test-config';

// The analytics consent (docs/rules/analytics.md): nothing before a choice, nothing after "Only
// necessary", GA4 with consent mode and sample rate 5 after "Allow analytics", booking steps as events.

type AnalyticsWindow = Window & { dataLayer?: unknown[] };
const NOW = new Date('2031-05-04T10:00:00+10:00');
const clock = () => NOW;
const GA4 = 'G-TEST12345';
const withAnalytics = (app: Parameters<typeof testConfig>[0] = {}) =>
  testConfig({ ...app, app: { analyticsEnabled: true, analyticsId: GA4, ...app.app } });

const googleScripts = () => [...document.querySelectorAll('script')].filter((script) => /google/.test(script.src));
/** The data layer's entries as plain arrays (gtag pushes Arguments objects). */
const dataLayer = () =>
  ((window as AnalyticsWindow).dataLayer ?? []).map((entry) =>
    typeof entry === 'object' && entry !== null && 'length' in entry ? Array.from(entry as ArrayLike<unknown>) : entry,
  );

beforeEach(() => {
  localStorage.clear();
});

describe('analytics consent', () => {
  it('asks first and loads nothing before the answer; "Allow analytics" loads GA4 with consent mode and reports booking steps', async () => {
    await renderApp('/about', { config: withAnalytics(), clock });
    const region = await screen.findByRole('region', { name: 'May we measure how the portal is used?' });
    expect(googleScripts()).toEqual([]);
    expect((window as AnalyticsWindow).dataLayer).toBeUndefined();
    expect(within(region).getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/privacy');
    const allow = within(region).getByRole('button', { name: 'Allow analytics' });
    const necessary = within(region).getByRole('button', { name: 'Only necessary' });
    expect(allow.className, 'equally prominent').toBe(necessary.className);

    fireEvent.click(allow);
    await waitFor(() => expect(googleScripts()).toHaveLength(1));
    expect(googleScripts()[0]?.src).toBe(`https://www.googletagmanager.com/gtag/js?id=${GA4}`);
    expect(screen.queryByRole('region', { name: 'May we measure how the portal is used?' })).toBeNull();
    expect(dataLayer()).toContainEqual([
      'consent',
      'default',
      expect.objectContaining({ analytics_storage: 'denied', ad_storage: 'denied' }),
    ]);
    expect(dataLayer()).toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);
    expect(dataLayer()).toContainEqual(['config', GA4, { site_speed_sample_rate: 5 }]);
    expect(JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY) ?? '{}')).toEqual({ choice: 'granted', decidedAt: NOW.getTime() });

    window.dispatchEvent(new CustomEvent('portal:booking-step', { detail: { step: 2 } }));
    expect(dataLayer()).toContainEqual(['event', 'booking_step', { step: 2 }]);

    // Cookie settings in the footer opens the question again; "Only necessary" stops the reports.
    fireEvent.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Cookie settings' }));
    const again = await screen.findByRole('region', { name: 'May we measure how the portal is used?' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('May we measure how the portal is used?'));
    fireEvent.click(within(again).getByRole('button', { name: 'Only necessary' }));
    await waitFor(() => expect(dataLayer()).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]));
    const before = dataLayer().length;
    window.dispatchEvent(new CustomEvent('portal:booking-step', { detail: { step: 3 } }));
    expect(dataLayer()).toHaveLength(before);
    expect(googleScripts(), 'no second script').toHaveLength(1);
  });

  it('loads nothing after "Only necessary", and remembers the answer', async () => {
    document.querySelectorAll('script').forEach((script) => script.remove());
    await renderApp('/about', { config: withAnalytics(), clock });
    fireEvent.click(await screen.findByRole('button', { name: 'Only necessary' }));
    expect(screen.queryByRole('region', { name: 'May we measure how the portal is used?' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(googleScripts()).toEqual([]);
    expect(JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY) ?? '{}')).toMatchObject({ choice: 'denied' });
  });

  it('keeps an answer for a year, then asks again', async () => {
    localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice: 'denied', decidedAt: NOW.getTime() - CONSENT_MAX_AGE_MS + 60_000 }));
    const first = await renderApp('/about', { config: withAnalytics(), clock });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: 'May we measure how the portal is used?' })).toBeNull();
    first.unmount();
    localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ choice: 'denied', decidedAt: NOW.getTime() - CONSENT_MAX_AGE_MS }));
    await renderApp('/about', { config: withAnalytics(), clock });
    expect(await screen.findByRole('region', { name: 'May we measure how the portal is used?' })).toBeTruthy();
  });

  it.each([
    ['analytics off', testConfig({ app: { analyticsEnabled: false, analyticsId: GA4 } }), '/about'],
    ['analytics on without an id', testConfig({ app: { analyticsEnabled: true, analyticsId: null } }), '/about'],
    ['kiosk mode', withAnalytics(), '/about?kioskMode=true'],
    ['a staff page', withAnalytics(), '/staff'],
    ['a referrer page', withAnalytics(), '/referrer'],
  ])('asks nothing and offers no cookie settings with %s', async (_case, config, url) => {
    await renderApp(url, { config, clock });
    await screen.findAllByRole('heading', { level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'May we measure how the portal is used?' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cookie settings' })).toBeNull();
  });

  it('loads gtm.js for Tag Manager and pushes the booking steps into its data layer', () => {
    // A fresh window of its own (the loader keeps one state per window).
    const target = new EventTarget();
    const fresh = {
      document: document.implementation.createHTMLDocument(''),
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
    } as unknown as Window & { dataLayer: unknown[] };
    loadAnalytics(fresh, { ga4: null, gtm: 'GTM-TEST123' }, clock);
    const scripts = [...fresh.document.head.querySelectorAll('script')].map((script) => script.src);
    expect(scripts).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST123']);
    expect(fresh.dataLayer).toContainEqual({ 'gtm.start': NOW.getTime(), event: 'gtm.js' });
    target.dispatchEvent(new CustomEvent('portal:booking-step', { detail: { step: 1 } }));
    expect(fresh.dataLayer).toContainEqual({ event: 'booking_step', booking_step: 1 });
    loadAnalytics(fresh, { ga4: null, gtm: 'GTM-TEST123' }, clock);
    expect(fresh.document.head.querySelectorAll('script')).toHaveLength(1);
  });
});

describe('analyticsAllowedOn', () => {
  it.each([
    ['/', true],
    ['/about', true],
    ['/appointments/k3y', true],
    ['/appointments/k3y/confirmed', true],
    ['/staffing-news', true],
    ['/staff', false],
    ['/staff/callbacks', false],
    ['/referrer', false],
    ['/referrer-access', false],
    ['/referrer/report-feedback/faq', false],
    ['/kiosk', false],
    ['/kiosk-check-in', false],
    ['/check-in', false],
    ['/image-viewer-access', false],
    ['/preview-email/x', false],
    ['/demo-viewer', false],
    ['/iframe/select-region', false],
    ['/iframe-test', false],
    ['/appointments/k3y/kiosk', false],
    ['/north-shore/appointments/k3y/kiosk', false],
  ])('%s → %s', (pathname, expected) => {
    expect(analyticsAllowedOn(pathname)).toBe(expected);
  });
});
