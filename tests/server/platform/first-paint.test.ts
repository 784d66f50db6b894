import { describe, expect, it } from 'vitest';
import type { BootstrapConfig } from '@contract/api/config';
import { loadDemoProvider } from '../../../src-server/db/seed/demo-provider';
import { hasSiteLayout, renderFirstPaint } from '../../../src-server/platform/first-paint';
import { renderThemeStyle } from '../../../src-server/platform/index-html';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';

/** Parses HTML with a real DOM parser (jsdom) rather than regular expressions. */
async function parseHtml(html: string): Promise<Document> {
  const { JSDOM } = await import('jsdom');
  return new JSDOM(html).window.document;
}

async function demoBootstrap(): Promise<BootstrapConfig> {
  const { provider } = await loadDemoProvider();
  return { ...provider, app: { ...provider.app, version: '1', versionHash: 'x' } };
}

describe('hasSiteLayout: the pages the first paint draws', () => {
  it.each([
    ['/', true],
    ['/?step=1&exams=mri-knee', true],
    ['/about', true],
    ['/appointments/abc', true],
    ['/staff/kiosks', true],
    ['/iframe', false],
    ['/iframe/select-region', false],
    ['/kiosk', false],
    ['/kiosk?kioskMode=true', false],
    ['/appointments/abc/kiosk', false],
    ['/about?kioskMode=true', false],
  ])('%s → %s', (url, expected) => {
    expect(hasSiteLayout({ url, cookie: undefined })).toBe(expected);
  });

  it('draws nothing for an enrolled kiosk (its identity cookie), whatever the page', () => {
    expect(hasSiteLayout({ url: '/about', cookie: 'a=1; kioskIdentity=k-123' })).toBe(false);
    expect(hasSiteLayout({ url: '/about', cookie: 'notkioskIdentity=1' })).toBe(true);
  });
});

describe('renderFirstPaint', () => {
  it('draws the environment strip, the banner with its close button place, and the header', async () => {
    const bootstrap = await demoBootstrap();
    const document = await parseHtml(renderFirstPaint(bootstrap, { url: '/', cookie: undefined }));
    const app = document.querySelector('.pp-app.pp-first-paint');
    expect(app).not.toBeNull();
    expect(app?.querySelector('.pp-environment-badge')).not.toBeNull();
    expect(app?.querySelector('.pp-banner .pp-banner-content')?.textContent).toMatch(/^Holiday hours:/);
    expect(app?.querySelector('.pp-banner .pp-banner-close')?.getAttribute('aria-hidden')).toBe('true');
    expect(app?.querySelector('.pp-header .pp-logo')?.getAttribute('src')).toBe('/api/assets/application/logo');
    expect(app?.querySelector('.pp-header-message')?.textContent).toBe(bootstrap.app.headerMessage);
    expect(app?.querySelector('.pp-header-image img')?.getAttribute('src')).toBe('/api/assets/application/header');
    expect(app?.querySelector('.pp-header-image source')?.getAttribute('srcset')).toBe('/api/assets/application/header_tablet');
    // Nothing to operate before the app runs: no link, no button, no form control.
    expect(app?.querySelectorAll('a, button, input, select, textarea')).toHaveLength(0);
  });

  it('uses the page type’s header picture (a confirmation page), without a tablet variant', async () => {
    const bootstrap = await demoBootstrap();
    const document = await parseHtml(renderFirstPaint(bootstrap, { url: '/appointments/abc', cookie: undefined }));
    expect(document.querySelector('.pp-header-image img')?.getAttribute('src')).toBe('/api/assets/application/confirmation_header');
    expect(document.querySelector('.pp-header-image source')).toBeNull();
  });

  it('leaves the banner out once the patient closed it (the session cookie), or when it is off', async () => {
    const bootstrap = await demoBootstrap();
    const closed = await parseHtml(renderFirstPaint(bootstrap, { url: '/', cookie: 'x=1; portal_banner_closed=1' }));
    expect(closed.querySelector('.pp-banner')).toBeNull();
    expect(closed.querySelector('.pp-header')).not.toBeNull();
    const off = await parseHtml(
      renderFirstPaint({ ...bootstrap, app: { ...bootstrap.app, bannerEnabled: false } }, { url: '/', cookie: undefined }),
    );
    expect(off.querySelector('.pp-banner')).toBeNull();
  });

  it('has no close place when the banner cannot be closed, and no environment strip in production', async () => {
    const bootstrap = await demoBootstrap();
    const html = renderFirstPaint(
      {
        ...bootstrap,
        radiology: { ...bootstrap.radiology, closeBanner: false },
        environment: { ...bootstrap.environment, production: true },
      },
      { url: '/', cookie: undefined },
    );
    const document = await parseHtml(html);
    expect(document.querySelector('.pp-banner-close')).toBeNull();
    expect(document.querySelector('.pp-environment')).toBeNull();
  });

  it('escapes the header message', async () => {
    const bootstrap = await demoBootstrap();
    const hostile = '<img src=x onerror=alert(1)>Call us';
    const document = await parseHtml(
      renderFirstPaint({ ...bootstrap, app: { ...bootstrap.app, headerMessage: hostile } }, { url: '/', cookie: undefined }),
    );
    expect(document.querySelector('.pp-header-message')?.textContent).toBe(hostile);
    expect(document.querySelectorAll('img[onerror]')).toHaveLength(0);
  });

  it('draws nothing for the embedded and kiosk pages', async () => {
    const bootstrap = await demoBootstrap();
    expect(renderFirstPaint(bootstrap, { url: '/iframe/select-region', cookie: undefined })).toBe('');
    expect(renderFirstPaint(bootstrap, { url: '/kiosk?kioskMode=true', cookie: undefined })).toBe('');
  });
});

describe('renderThemeStyle', () => {
  it('sets the provider’s colours as CSS variables with the nonce', async () => {
    const bootstrap = await demoBootstrap();
    const style = renderThemeStyle(bootstrap, 'abc');
    expect(style).toMatch(/^<style nonce="abc">html:root\{/);
    expect(style).toContain(`--pp-header-bg:${bootstrap.theme.colorHeaderBackground}`);
  });

  it('drops a value that could end its rule or leave the style element', async () => {
    const bootstrap = await demoBootstrap();
    const style = renderThemeStyle({ ...bootstrap, theme: { ...bootstrap.theme, fontFamily: 'x}</style><script>alert(1)</script>' } }, 'n');
    expect(style).not.toContain('--pp-font');
    expect(style).not.toContain('</style><');
    expect(style.match(/<\/style>/g)).toHaveLength(1);
  });

  it('places the banner as the provider set it (whitelisted declarations, as the app applies them), or not at all', async () => {
    const bootstrap = await demoBootstrap();
    const at = (bannerPositionCss: string | null) =>
      renderThemeStyle({ ...bootstrap, radiology: { ...bootstrap.radiology, bannerPositionCss } }, 'n');
    expect(at('position: sticky; top: 0; max-width: 60rem')).toContain(
      'html body .pp-banner{position:sticky;top:0;max-width:60rem}</style>',
    );
    expect(at(null)).not.toContain('.pp-banner');
    // Refused at config validation; should one reach here, nothing of it is written.
    expect(at('position: absolute; z-index: 1}body{display:none')).not.toContain('.pp-banner');
  });
});

describe.each(backends())('the served page’s first paint on %s', (backend) => {
  const server = useTestApp({ backend, webRoot: true });

  async function page(url: string, cookie?: string): Promise<{ document: Document; csp: string }> {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (cookie) headers.cookie = cookie;
    const response = await server.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode).toBe(200);
    return { document: await parseHtml(response.body), csp: String(response.headers['content-security-policy']) };
  }

  it('is inside #root, with the theme in a style element carrying the CSP nonce', async () => {
    const { document, csp } = await page('/about');
    expect(document.querySelector('#root > .pp-app.pp-first-paint .pp-banner')).not.toBeNull();
    const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
    const style = document.querySelector('head style');
    expect(style?.getAttribute('nonce')).toBe(nonce);
    expect(style?.textContent).toContain('--pp-header-bg:');
    expect(csp).toContain(`'nonce-${nonce}'`);
  });

  it('sanitises a hostile configured banner before drawing it', async () => {
    await server.db.query(`update provider set app_config = app_config || $1::jsonb`, [
      JSON.stringify({ bannerEnabled: true, bannerHtml: '<p>Closed <img src=x onerror=alert(1)><script>alert(2)</script>Friday</p>' }),
    ]);
    const { document } = await page('/');
    const banner = document.querySelector('#root .pp-banner-content');
    expect(banner?.textContent).toBe('Closed Friday');
    expect(document.querySelectorAll('#root script, #root img[onerror]')).toHaveLength(0);
  });

  it('is left out of the embedded pages and after the banner was closed', async () => {
    expect((await page('/iframe/select-region')).document.querySelector('#root')?.children).toHaveLength(0);
    const closed = await page('/', 'portal_banner_closed=1');
    expect(closed.document.querySelector('#root .pp-header')).not.toBeNull();
    expect(closed.document.querySelector('#root .pp-banner')).toBeNull();
  });
});
