// @vitest-environment jsdom
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const html = readFileSync(path.resolve(import.meta.dirname, '../../../resources/kiosk/enrollment.html'), 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
const scriptText = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';

/** The page as main loads it (loadFile with ?reason= and ?kiosk=), its inline script run once. */
function open(query: string) {
  window.history.replaceState(null, '', `/enrollment.html${query}`);
  document.open();
  document.write(html.replace(/<script>[\s\S]*<\/script>/, ''));
  document.close();
  new Function(scriptText)();
  const visible = [...document.querySelectorAll('section')].filter((section) => !section.hidden).map((section) => section.dataset.reason);
  const label = document.getElementById('kiosk-name');
  return { visible, kioskName: label && !label.hidden ? label.textContent : null };
}

describe('resources/kiosk/enrollment.html', () => {
  it('allows exactly its own inline style and script by hash', () => {
    open('');
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
    const style = document.querySelector('style')?.textContent ?? '';
    const script = scriptText;
    expect(csp).toBe(
      `default-src 'none'; style-src 'sha256-${sha256(style)}'; script-src 'sha256-${sha256(script)}'; base-uri 'none'; form-action 'none'`,
    );
    expect(document.querySelectorAll('a, button, form, input, iframe, img')).toHaveLength(0);
  });

  it('shows the enroll-again message staff recognise, with the kiosk name', () => {
    const { visible, kioskName } = open('?reason=enroll-again&kiosk=Parramatta%20lobby%201');
    expect(visible).toEqual(['enroll-again']);
    expect(document.querySelector('section:not([hidden]) h1')?.textContent).toBe('This kiosk needs to be enrolled again. Please ask staff.');
    expect(kioskName).toBe('Kiosk: Parramatta lobby 1');
  });

  it.each(['code-rejected', 'insecure-storage'])('shows only the %s message', (reason) => {
    expect(open(`?reason=${reason}`).visible).toEqual([reason]);
  });

  it('falls back to enroll-again for an unknown reason and shows a name only as text', () => {
    const { visible, kioskName } = open('?reason=nonsense&kiosk=%3Cimg%20src%3Dx%3E');
    expect(visible).toEqual(['enroll-again']);
    expect(kioskName).toBe('Kiosk: <img src=x>');
    expect(document.querySelectorAll('img')).toHaveLength(0);
  });
});
