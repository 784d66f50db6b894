import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BootstrapConfigSchema, type BootstrapConfig } from '@contract/api/config';
import {
  HEAD_END,
  HEAD_START,
  IndexTemplateError,
  jsonForScript,
  pageTitle,
  renderIndexHtml,
} from '../../../src-server/platform/index-html';
import { loadDemoProvider } from '../../../src-server/db/seed/demo-provider';
import { WEB_NOT_BUILT_MESSAGE } from '../../../src-server/platform/web-app';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';

/** Parses the served page with a real DOM parser (jsdom) rather than regular expressions. */
async function parseHtml(html: string): Promise<Document> {
  const { JSDOM } = await import('jsdom');
  return new JSDOM(html).window.document;
}

function configScript(document: Document): unknown {
  const script = document.querySelector('script#portal-config');
  expect(script?.getAttribute('type')).toBe('application/json');
  return JSON.parse(script?.textContent ?? 'null');
}

describe('pageTitle', () => {
  it.each([
    [null, 'Harbour & Range Radiology'],
    ['', 'Harbour & Range Radiology'],
    ['   ', 'Harbour & Range Radiology'],
    ['Book online', 'Harbour & Range Radiology | Book online'],
  ])('with metaTitle %j is %j', (metaTitle, title) => {
    expect(pageTitle({ app: { metaTitle }, radiology: { name: 'Harbour & Range Radiology' } })).toBe(title);
  });
});

describe('jsonForScript', () => {
  it('leaves no raw <, > or & and parses back to the same value', () => {
    const value = { text: '</script><!-- <b>&amp;</b>', line: 'a\u2028b' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('renderIndexHtml', () => {
  it('refuses a template without exactly one portal-head block', async () => {
    const { provider } = await loadDemoProvider();
    const bootstrap: BootstrapConfig = { ...provider, app: { ...provider.app, version: '1', versionHash: 'x' } };
    expect(renderIndexHtml(`<head>${HEAD_START}${HEAD_END}</head>`, bootstrap, 'n')).toContain('<title>');
    expect(() => renderIndexHtml('<html><head></head></html>', bootstrap, 'n')).toThrow(IndexTemplateError);
    expect(() => renderIndexHtml(`${HEAD_START}${HEAD_END}${HEAD_START}${HEAD_END}`, bootstrap, 'n')).toThrow(IndexTemplateError);
  });

  it('works on the real web template src-web/index.html', () => {
    const template = readFileSync(new URL('../../../src-web/index.html', import.meta.url), 'utf8');
    expect(template.split(HEAD_START)).toHaveLength(2);
    expect(template).toContain(`${HEAD_START}<title>Patient portal</title>${HEAD_END}`);
  });
});

describe.each(backends())('index.html served with the configuration injected on %s', (backend) => {
  const server = useTestApp({ backend, webRoot: true });

  async function page(url = '/'): Promise<{ html: string; document: Document; csp: string }> {
    const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    return { html: response.body, document: await parseHtml(response.body), csp: String(response.headers['content-security-policy']) };
  }

  async function setApp(values: Record<string, string | null>, radiologyName?: string): Promise<void> {
    await server.db.query(
      `update provider set app_config = app_config || $1::jsonb,
         radiology_config = case when $2::text is null then radiology_config
                                 else radiology_config || jsonb_build_object('name', $2::text) end`,
      [JSON.stringify(values), radiologyName ?? null],
    );
  }

  it('puts the title (name | meta title), description, keywords, social description and favicon in the head', async () => {
    const { document, html } = await page('/about');
    expect(document.title).toBe('Harbour & Range Radiology | Book your scan online');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/^Book CT, MRI/);
    expect(document.querySelector('meta[name="keywords"]')?.getAttribute('content')).toMatch(/radiology/);
    expect(document.querySelector('meta[property="og:description"]')?.getAttribute('content')).toMatch(/Harbour & Range/);
    // The demo provider has no search verification id: no empty tag.
    expect(document.querySelector('meta[name="google-site-verification"]')).toBeNull();
    expect(document.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('/api/assets/application/favicon');
    expect(html).not.toContain(HEAD_START);
    expect(html).not.toContain('Patient portal</title>');
    expect(document.querySelectorAll('title')).toHaveLength(1);
  });

  it('uses the radiology name alone when no meta title is set, and adds a verification id when set', async () => {
    await setApp({ metaTitle: null, searchVerificationId: 'verify-123', description: null });
    const { document } = await page();
    expect(document.title).toBe('Harbour & Range Radiology');
    expect(document.querySelector('meta[name="google-site-verification"]')?.getAttribute('content')).toBe('verify-123');
    expect(document.querySelector('meta[name="description"]')).toBeNull();
  });

  it('escapes a hostile provider name and meta values so they stay text', async () => {
    const hostile = '</title><script>alert(1)</script>';
    await setApp({ metaTitle: '"><img src=x onerror=alert(2)>', keywords: '"/><script>alert(3)</script>' }, hostile);
    const { document, html } = await page();
    expect(document.title).toBe(`${hostile} | "><img src=x onerror=alert(2)>`);
    expect(document.querySelector('meta[name="keywords"]')?.getAttribute('content')).toBe('"/><script>alert(3)</script>');
    expect(document.querySelectorAll('script:not([type])')).toHaveLength(0);
    expect(document.querySelectorAll('img[onerror]')).toHaveLength(0);
    expect(html).not.toContain('<script>alert');
    const bootstrap = BootstrapConfigSchema.parse(configScript(document));
    expect(bootstrap.radiology.name).toBe(hostile);
  });

  it('embeds the bootstrap configuration as JSON with no raw < and the same nonce as the CSP header', async () => {
    const { document, csp } = await page('/iframe/select-region');
    const script = document.querySelector('script#portal-config');
    const raw = script?.textContent ?? '';
    expect(raw).not.toContain('<');
    const bootstrap = BootstrapConfigSchema.parse(JSON.parse(raw));
    const apiAnswer = BootstrapConfigSchema.parse((await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' })).json());
    expect(bootstrap).toEqual(apiAnswer);
    const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(script?.getAttribute('nonce')).toBe(nonce);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
  });

  it('preloads the translation overlay of the configured locale, as the web app asks it', async () => {
    const { document } = await page('/');
    const links = document.querySelectorAll('link[rel="preload"][as="fetch"]');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('/api/assets/translations?lang=en-AU');
    expect(links[0]?.getAttribute('crossorigin')).toBe('use-credentials');
  });

  it('keeps the rest of the template (the module script of the build) as it was', async () => {
    const { document } = await page('/unknown/deep/path');
    const template = readFileSync(join(server.webRoot, 'index.html'), 'utf8');
    const moduleSrc = /<script type="module" crossorigin src="([^"]+)">/.exec(template)?.[1];
    expect(document.querySelector('script[type="module"]')?.getAttribute('src')).toBe(moduleSrc);
    expect(document.querySelector('#root')).not.toBeNull();
  });
});

describe('pages when the web app is not built', () => {
  const server = useTestApp({ env: { WEB_ROOT: '/nonexistent/portal-web' } });

  it('answers 503 with a clear message, while the API keeps working', async () => {
    const pageResponse = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(pageResponse.statusCode).toBe(503);
    expect(pageResponse.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(pageResponse.body).toBe(WEB_NOT_BUILT_MESSAGE);
    expect(pageResponse.body).toBe('The web app is not built: run npm run build:web');
    const api = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(api.statusCode).toBe(200);
  });
});
