import { screen, waitFor } from '@testing-library/react';
import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { PAGE_TABLE, type PageId } from '../../src-web/pages';
import { buildRoutes, type PortalRouteHandle } from '../../src-web/routes';
import { renderApp } from './helpers/render-app';

/** Every route in docs/rules/shell.md#routes as a concrete URL, with the page it must show. */
const SPEC_ROUTES: [string, PageId][] = [
  ['/', 'booking'],
  ['/appointments/k3y', 'appointment'],
  ['/appointments/pending/k3y', 'appointment'],
  ['/appointments/k3y/kiosk?kioskMode=true', 'appointment'],
  ['/appointments/k3y/result', 'result'],
  ['/appointments/k3y/result/patient?dateOfBirth=1990-01-01&otpType=EMAIL', 'result'],
  ['/a/k3y', 'appointment'],
  ['/booking-requests/k3y', 'booking-request'],
  ['/br/k3y', 'booking-request'],
  ['/north-shore/appointments/k3y?kioskMode=true', 'appointment'],
  ['/north-shore/appointments/pending/k3y', 'appointment'],
  ['/north-shore/booking-requests/k3y', 'booking-request'],
  ['/check-in?step=confirm&kioskMode=true', 'check-in'],
  ['/kiosk?kioskMode=true', 'kiosk'],
  ['/questionnaires', 'questionnaires'],
  ['/q', 'questionnaires'],
  ['/authentication?returnUrl=%2Fa%2Fk3y&type=APPOINTMENT', 'authentication'],
  ['/deny?status=EXPIRED', 'deny'],
  ['/image-viewer-access', 'image-viewer-access'],
  ['/referrer-access', 'referrer-access'],
  ['/referrer/quick-report?imsec=x&repositorySource=y', 'referrer-quick-report'],
  ['/referrer/report-feedback?accession=A1', 'referrer-report-feedback'],
  ['/referrer/report-feedback/faq', 'referrer-report-feedback-faq'],
  ['/preview-email?template=t&lang=en&referenceId=1', 'preview-email'],
  ['/staff/kiosks', 'staff-kiosks'],
  ['/iframe-test', 'iframe-test'],
  ['/about', 'about'],
  ['/contact', 'contact'],
  ['/terms', 'terms'],
  ['/privacy', 'privacy'],
  ['/advanced-booking', 'advanced-booking'],
];

const routes = buildRoutes();

function resolve(url: string) {
  const pathname = url.split('?')[0] ?? url;
  const matches = matchRoutes(routes, pathname);
  if (!matches) throw new Error(`no route matches ${url}`);
  const leaf = matches[matches.length - 1];
  if (!leaf) throw new Error(`no route matches ${url}`);
  const handle: PortalRouteHandle | undefined = leaf.route.handle;
  return { ids: matches.map((match) => match.route.id), leaf: leaf.route, page: handle?.page, embedded: handle?.embedded };
}

describe('route table', () => {
  it.each(SPEC_ROUTES)('should show %s at the top level in the portal layout', (url, page) => {
    const match = resolve(url);
    expect(match.page).toBe(page);
    expect(match.embedded).toBe(false);
    expect(match.ids.slice(0, 2)).toEqual(['root', 'portal']);
  });

  it.each(SPEC_ROUTES.filter(([url]) => url !== '/'))('should show %s under /iframe in the embedded layout', (url, page) => {
    const match = resolve(`/iframe${url}`);
    expect(match.page).toBe(page);
    expect(match.embedded).toBe(true);
    expect(match.ids.slice(0, 2)).toEqual(['root', 'embedded']);
  });

  it('should show the staff home at /staff in the portal layout only: staff do not work inside a provider frame', () => {
    expect(resolve('/staff').page).toBe('staff-home');
    expect(resolve('/staff').embedded).toBe(false);
    expect(resolve('/iframe/staff').page).toBe('not-found');
  });

  it('should send /iframe to the default embedded page', () => {
    expect(resolve('/iframe').ids).toEqual(['root', 'embedded', 'embedded:index']);
    expect(resolve('/iframe/select-region').page).toBe('select-region');
  });

  it('should mount select-region only under /iframe', () => {
    expect(resolve('/select-region').page).toBe('not-found');
  });

  it('should resolve the aliases to the same page code as their targets', () => {
    const pairs: [string, string][] = [
      ['/a/k3y', '/appointments/k3y'],
      ['/br/k3y', '/booking-requests/k3y'],
      ['/q', '/questionnaires'],
      ['/iframe/a/k3y', '/iframe/appointments/k3y'],
      ['/iframe/br/k3y', '/iframe/booking-requests/k3y'],
      ['/iframe/q', '/iframe/questionnaires'],
    ];
    for (const [alias, target] of pairs) {
      const a = resolve(alias);
      const b = resolve(target);
      expect(a.page).toBe(b.page);
      expect(a.leaf.lazy).toBe(b.leaf.lazy);
    }
  });

  it('should register every route once', () => {
    const patterns = PAGE_TABLE.flatMap((row) => row.patterns);
    expect(new Set(patterns).size).toBe(patterns.length);
    const ids = PAGE_TABLE.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of PAGE_TABLE) expect(row.load).toBeTypeOf('function');
  });

  it('should give unknown paths the not-found page inside each layout', () => {
    expect(resolve('/no/such/page/here')).toMatchObject({ page: 'not-found', embedded: false });
    expect(resolve('/iframe/no/such/page/here')).toMatchObject({ page: 'not-found', embedded: true });
  });
});

describe('pages behind the route table', () => {
  it.each(['/', '/advanced-booking', '/iframe/advanced-booking'])('should show the booking flow at %s', async (url) => {
    await renderApp(url);
    expect(await screen.findByRole('heading', { level: 1, name: 'Book an appointment' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Booking steps' })).toBeTruthy();
  });

  it('should show the not-found page inside the shell for an unknown path', async () => {
    await renderApp('/no/such/page/here');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });

  it('should redirect /iframe to the select-region page in the embedded layout', async () => {
    const app = await renderApp('/iframe');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Harbour & Range Radiology' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/iframe/select-region');
    expect(screen.getByRole('link', { name: 'Find a clinic' }).getAttribute('href')).toBe('/iframe/contact');
    expect(document.querySelector('footer')).toBeNull();
  });

  it('should follow a link query to an internal page, inside the embedded layout', async () => {
    const app = await renderApp(`/iframe/select-region?link=${encodeURIComponent('/about')}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'About' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/iframe/about');
  });

  it('should keep the link query when /iframe redirects', async () => {
    const app = await renderApp(`/iframe?link=${encodeURIComponent('/iframe/contact')}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/iframe/contact');
    expect(await screen.findByRole('heading', { level: 3, name: 'Parramatta' })).toBeTruthy();
  });

  it.each(['//evil.example/x', 'https://evil.example/', 'javascript:alert(1)'])('should ignore the link %s', async (link) => {
    const app = await renderApp(`/iframe/select-region?link=${encodeURIComponent(link)}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Harbour & Range Radiology' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/iframe/select-region');
  });

  it("should frame the default embedded page on /iframe-test with the providers' script tag", async () => {
    await renderApp('/iframe-test');
    await screen.findByRole('heading', { level: 1, name: 'Embedded portal test' });
    // The script (resources/embed/embed.js, run in the browser journeys) makes the frame. The page
    // adds it in an effect after its first render, which may come after the heading is found.
    const script = await waitFor(() => {
      const added = document.querySelector<HTMLScriptElement>('script[src="/embed.js"]');
      expect(added).not.toBeNull();
      return added;
    });
    expect(script?.dataset.path).toBe('/select-region');
    expect(script?.dataset.title).toBe('Embedded patient portal');
  });
});
