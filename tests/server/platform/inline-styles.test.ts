import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inlineStylesheets, MAX_INLINE_CSS_BYTES, readInlineStylesheets } from '../../../src-server/platform/inline-styles';
import { useTestApp } from '../helpers/test-app';

const PAGE_CSS = '.pp-app{color:#123456}.pp-banner{padding:8px}';
const link = (href: string) => `<link rel="stylesheet" crossorigin href="${href}">`;

/** A web root holding `files` (name under assets/ → content). */
function webRootWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-inline-styles-'));
  mkdirSync(join(dir, 'assets'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, 'assets', name), content);
  return dir;
}

describe('inlining the page stylesheets', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("writes a small sheet's rules into a style element with the nonce, and keeps its link dormant", async () => {
    const root = webRootWith({ 'index-Ab12.css': PAGE_CSS });
    roots.push(root);
    const template = `<head>${link('/assets/index-Ab12.css')}</head>`;
    const page = inlineStylesheets(template, await readInlineStylesheets(template, root), 'n0nce+/=');
    expect(page).toBe(
      `<head><style nonce="n0nce+/=">${PAGE_CSS}</style><link media="not all" rel="stylesheet" crossorigin href="/assets/index-Ab12.css"></head>`,
    );
  });

  it('leaves a link as it is when its sheet is too large, could end the style element, is missing or is not an asset', async () => {
    const root = webRootWith({
      'large-Cd34.css': `.x{color:red}${' '.repeat(MAX_INLINE_CSS_BYTES)}`,
      'closing-Ef56.css': '.x::after{content:"</STYLE><script>alert(1)</script>"}',
      'comment-Gh78.css': '.x{color:red}<!--',
    });
    roots.push(root);
    writeFileSync(join(root, 'outside.css'), PAGE_CSS);
    const links = [
      '/assets/large-Cd34.css',
      '/assets/closing-Ef56.css',
      '/assets/comment-Gh78.css',
      '/assets/gone-Ij90.css',
      '/outside.css',
    ];
    const template = `<head>${links.map(link).join('')}</head>`;
    expect(await readInlineStylesheets(template, root)).toEqual([]);
    expect(inlineStylesheets(template, [], 'n')).toBe(template);
  });
});

describe('the served page', () => {
  const server = useTestApp({
    webRoot: (dir) => {
      writeFileSync(join(dir, 'assets', 'index-Kl12.css'), PAGE_CSS);
      const indexPath = join(dir, 'index.html');
      writeFileSync(indexPath, readFileSync(indexPath, 'utf8').replace('</head>', `${link('/assets/index-Kl12.css')}</head>`));
    },
  });

  it("carries the page's stylesheet inline under the response's CSP nonce, so the first paint waits for no other request", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(response.body).toContain(`<style nonce="${nonce}">${PAGE_CSS}</style>`);
    expect(response.body).toContain('<link media="not all" rel="stylesheet" crossorigin href="/assets/index-Kl12.css">');
    // The sheet itself is still served, for the lazy chunks that name it.
    const sheet = await server.app.inject({ method: 'GET', url: '/assets/index-Kl12.css' });
    expect(sheet.body).toBe(PAGE_CSS);
  });
});
