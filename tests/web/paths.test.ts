import { describe, expect, it } from 'vitest';
import { RESULTS_EXPIRED_PATH } from '@contract/api/results';
import { matchRoutes } from 'react-router-dom';
import type { PageId } from '../../src-web/pages';
import { hrefOf, isEmbeddedPath, paths, ROUTE } from '../../src-web/paths';
import { buildRoutes, matchedPage } from '../../src-web/routes';

describe('paths', () => {
  it('puts a path under /iframe once, whatever it was', () => {
    expect(paths.embedded('/')).toBe('/iframe');
    expect(paths.embedded('/about')).toBe('/iframe/about');
    expect(paths.embedded('/iframe/about')).toBe('/iframe/about');
    expect(isEmbeddedPath('/iframe?x=1')).toBe(true);
    expect(isEmbeddedPath('/iframes')).toBe(false);
  });

  it('keeps a path in the layout of the page it is followed from', () => {
    expect(paths.inLayoutOf('/iframe/referrer/quick-report?imsec=a', '/deny?resultsExpired=true')).toBe('/iframe/deny?resultsExpired=true');
    expect(paths.inLayoutOf('/referrer/quick-report?imsec=a', '/deny?resultsExpired=true')).toBe('/deny?resultsExpired=true');
    expect(paths.inLayoutOf('/iframe/results/shared', '/iframe/deny')).toBe('/iframe/deny');
  });

  it('sends an expired link to the deny page the server names too', () => {
    expect(paths.resultsExpired()).toBe(RESULTS_EXPIRED_PATH);
    expect(RESULTS_EXPIRED_PATH).toBe('/deny?resultsExpired=true');
  });
});

describe('addresses built from the route patterns', () => {
  it('encodes parameters, drops a trailing /* and keeps the query in its order, leaving empty values out', () => {
    expect(paths.home()).toBe('/');
    expect(paths.appointment('a b/c')).toBe('/appointments/a%20b%2Fc');
    expect(paths.appointmentConfirmed('k3y')).toBe('/appointments/k3y/confirmed');
    expect(paths.bookingRequest('k3y')).toBe('/booking-requests/k3y');
    expect(paths.questionnaires()).toBe('/questionnaires');
    expect(paths.kioskHome()).toBe('/kiosk?kioskMode=true');
    expect(paths.callback()).toBe('/callback');
    expect(paths.callback('mri knee')).toBe('/callback?exam=mri%20knee');
    expect(paths.authentication({ otpType: 'SMS', shared: true, returnUrl: '/a/k3y', bookingKey: '' })).toBe(
      '/authentication?returnUrl=%2Fa%2Fk3y&shared=true&otpType=SMS',
    );
    expect(paths.authentication({ staffBooking: false })).toBe('/authentication');
    expect(hrefOf(ROUTE.checkIn, {}, { step: 'confirm', kioskMode: true })).toBe('/check-in?step=confirm&kioskMode=true');
  });

  it('gives addresses the router shows the right page for', () => {
    const routes = buildRoutes();
    const pageAt = (href: string): unknown => {
      const matches = matchRoutes(routes, href.split('?')[0] ?? href) ?? [];
      return matchedPage(matches);
    };
    const expected: [string, PageId][] = [
      [paths.home(), 'booking'],
      [paths.appointment('k3y'), 'appointment'],
      [paths.appointmentConfirmed('k3y'), 'appointment'],
      [paths.bookingRequest('k3y'), 'booking-request'],
      [paths.staffConsents('k3y'), 'staff-consents'],
      [paths.callback('x'), 'callback'],
      [paths.selectRegion(), 'select-region'],
      [paths.kioskHome(), 'kiosk'],
      [paths.referrerReportFeedbackFaq(), 'referrer-report-feedback-faq'],
      [paths.authentication({ bookingKey: 'k3y' }), 'authentication'],
      [hrefOf(ROUTE.staffHome), 'staff-home'],
    ];
    for (const [href, page] of expected) expect([href, pageAt(href)]).toEqual([href, page]);
  });
});
