import { describe, expect, it } from 'vitest';
import { framedBySelfOnly } from '../../../../src-server/platform/plugins/security-headers';
import { backends } from '../../helpers/database';
import { cspDirective } from '../../helpers/csp';
import { useTestApp } from '../../helpers/test-app';

// Who may frame which page (docs/rules/embedding.md#who-may-frame-the-portal, from a pen
// test): the provider's sites may frame the patient pages and /iframe; staff, referrer, kiosk
// and development pages only the portal itself, also when reached under /iframe or written
// differently (the web app's router decodes the path and ignores case).

const KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
const PROVIDER_ORIGINS = ["'self'", 'https://www.harbourrange.example', 'https://harbourrange.example', 'https://partner.example'];

/** Every page of src-web/paths.ts that is not a patient's, and the server's own pages. */
const SELF_ONLY_PAGES = [
  '/staff/kiosks',
  '/staff/referrer-feedback',
  '/referrer-access',
  '/referrer/quick-report',
  '/referrer/report-feedback',
  '/referrer/report-feedback/faq',
  '/kiosk',
  '/kiosk?kioskMode=true',
  '/check-in',
  `/appointments/${KEY}/kiosk`,
  '/preview-email',
  '/image-viewer-access',
  '/demo-viewer',
  '/iframe-test',
  '/dev/outbox',
  '/api/docs',
  // Under /iframe, and as the browser's router would still read them.
  '/iframe/staff/kiosks',
  '/iframe/kiosk',
  '/iframe/referrer-access',
  '/STAFF/kiosks',
  '/%73taff/kiosks',
  '/Kiosk',
];

const PATIENT_PAGES = [
  '/',
  '/about',
  '/advanced-booking',
  `/appointments/${KEY}`,
  `/appointments/${KEY}/result`,
  `/parramatta/appointments/${KEY}`,
  '/authentication',
  '/results/shared',
  '/questionnaires',
  '/deny',
  '/iframe',
  '/iframe/select-region',
  `/iframe/appointments/${KEY}`,
  '/iframe/about',
];

describe.each(backends())('frame-ancestors by page on %s', (backend) => {
  const server = useTestApp({ backend, webRoot: true, env: { EMBED_ORIGINS: 'https://partner.example', MAIL_DEV_OUTBOX_ENABLED: 'true' } });

  it.each(SELF_ONLY_PAGES)("lets only the portal itself frame %s ('self', no provider origin)", async (url) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(response.statusCode, response.body.slice(0, 200)).toBeLessThan(500);
    expect(cspDirective(response, 'frame-ancestors')).toEqual(["'self'"]);
  });

  it.each(PATIENT_PAGES)("lets the provider's configured sites frame the patient page %s", async (url) => {
    const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^text\/html/);
    expect(cspDirective(response, 'frame-ancestors')).toEqual(PROVIDER_ORIGINS);
  });

  it('keeps the provider origins on API answers and assets a framed patient page loads', async () => {
    for (const url of ['/api/config/app', '/api/health', '/assets/missing.js']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(cspDirective(response, 'frame-ancestors'), url).toEqual(PROVIDER_ORIGINS);
    }
  });
});

describe('framedBySelfOnly', () => {
  it.each([
    ['/staff', true],
    ['/staff/kiosks?x=1', true],
    ['/referrer', true],
    ['/referrers-anything', true],
    ['/kiosk-setup', true],
    ['//staff/kiosks', true],
    ['/iframe/%2573taff/kiosks', true],
    ['/api/docs/static/index.html', true],
    ['/appointments/pending/abc', false],
    ['/api/staff/kiosks', false],
    ['/iframe/advanced-booking', false],
    ['/staffing-clinic/appointments/abc', false],
  ])('%s → %s', (url, expected) => {
    expect(framedBySelfOnly(url)).toBe(expected);
  });
});
