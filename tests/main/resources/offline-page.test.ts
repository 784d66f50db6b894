// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import { beforeAll, describe, expect, it } from 'vitest';

// A path, not a URL: under jsdom the global URL is jsdom's, which node:fs does not accept.
const html = readFileSync(path.resolve(import.meta.dirname, '../../../resources/kiosk/offline.html'), 'utf8');

describe('resources/kiosk/offline.html', () => {
  beforeAll(() => {
    document.open();
    document.write(html);
    document.close();
  });

  it('is a static page: no script, no link, nothing to click', () => {
    expect(document.querySelectorAll('script, a, button, form, input, iframe, img')).toHaveLength(0);
  });

  it('has a CSP that allows its own inline style by hash and nothing else', () => {
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
    const style = document.querySelector('style')?.textContent ?? '';
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`);
  });

  it('tells the patient what to do, in a language-tagged document with one heading', () => {
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe('Kiosk out of order');
    expect([...document.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['This kiosk is out of order for the moment']);
    expect(document.querySelector('main')?.textContent).toContain('Please ask at the desk');
  });

  it('has no axe violations', async () => {
    // jsdom does no layout, so colour contrast cannot be measured here; white on #1f2933 is 14.6:1.
    const results = await axe.run(document, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  });
});
