import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { cspDirective } from '../../helpers/csp';
import { useTestApp } from '../../helpers/test-app';

// The Google origins are in the CSP only while analytics (GA4) or tracking (GTM) is on with an id,
// and never on staff, referrer or kiosk pages (docs/rules/analytics.md#csp).

const GOOGLE_SCRIPT = 'https://www.googletagmanager.com';
const COLLECTION = ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'];

const directive = cspDirective;

describe.each(backends())('analytics origins in the CSP on %s', (backend) => {
  const server = useTestApp({ backend, webRoot: true });
  const { clock } = server;
  const page = (url: string) => server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  async function setApp(values: Record<string, unknown>): Promise<void> {
    await server.db.query(`update provider set app_config = app_config || $1::jsonb`, [JSON.stringify(values)]);
    clock.advance(31_000); // past the header sources' cache lifetime
  }

  it('has none of them while analytics and tracking are off (the demo provider)', async () => {
    const response = await page('/');
    expect(directive(response, 'script-src')).toEqual(["'self'"]);
    expect(String(response.headers['content-security-policy'])).not.toMatch(/google/);
  });

  it('adds them when GA4 is on with an id, or GTM is on with an id, and drops them again when turned off', async () => {
    await setApp({ analyticsEnabled: true, analyticsId: 'G-TEST12345' });
    for (const url of ['/', '/about', '/api/config/bootstrap']) {
      const response = await (url.startsWith('/api') ? server.app.inject({ method: 'GET', url }) : page(url));
      expect(directive(response, 'script-src'), url).toEqual(["'self'", GOOGLE_SCRIPT]);
      expect(directive(response, 'connect-src'), url).toEqual(["'self'", ...COLLECTION]);
      expect(directive(response, 'img-src'), url).toEqual(["'self'", 'data:', 'https://tile.openstreetmap.org', ...COLLECTION]);
    }
    await setApp({ analyticsEnabled: false, trackingEnabled: true, trackingId: 'GTM-TEST123' });
    expect(directive(await page('/'), 'script-src')).toEqual(["'self'", GOOGLE_SCRIPT]);
    await setApp({ trackingEnabled: false });
    expect(directive(await page('/'), 'script-src')).toEqual(["'self'"]);
    expect(directive(await page('/'), 'connect-src')).toEqual(["'self'"]);
  });

  it('keeps them off while a flag is on without an id', async () => {
    await setApp({ analyticsEnabled: true, analyticsId: null, trackingEnabled: true, trackingId: null });
    expect(directive(await page('/'), 'script-src')).toEqual(["'self'"]);
    await setApp({ analyticsEnabled: false, trackingEnabled: false });
  });

  it('never adds them to staff, referrer or kiosk pages', async () => {
    await setApp({ analyticsEnabled: true, analyticsId: 'G-TEST12345' });
    for (const url of ['/staff', '/referrer-access', '/kiosk', '/check-in']) {
      expect(directive(await page(url), 'script-src'), url).toEqual(["'self'"]);
      expect(String((await page(url)).headers['content-security-policy']), url).not.toMatch(/google/);
    }
    expect(directive(await page('/'), 'script-src')).toEqual(["'self'", GOOGLE_SCRIPT]);
    await setApp({ analyticsEnabled: false });
  });
});
