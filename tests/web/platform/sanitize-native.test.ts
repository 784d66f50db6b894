import { afterEach, describe, expect, it } from 'vitest';
import { CONFIGURED_HTML_TAGS } from '@contract/configured-html';
import { nativeSanitizer } from '../../../src-web/platform/sanitize-native';
import { sanitizeHtml } from '../../../src-web/platform/sanitize';

/*
 * jsdom has no Element.setHTML, so these tests stand in a setHTML that ignores its configuration
 * and parses everything (the worst a browser could do): the walk after it must still keep only
 * the allow-list. The real setHTML is checked in Chromium by tests/e2e/shell.spec.ts.
 */
type Proto = { setHTML?: (this: Element, html: string, options: unknown) => void };
const proto = Element.prototype as unknown as Proto;
let configs: unknown[] = [];

function withPermissiveSetHtml() {
  configs = [];
  proto.setHTML = function (html, options) {
    configs.push(options);
    this.innerHTML = html;
  };
  const sanitize = nativeSanitizer();
  if (!sanitize) throw new Error('expected the native sanitiser');
  return sanitize;
}

afterEach(() => {
  delete proto.setHTML;
});

describe('nativeSanitizer', () => {
  it('is null where the browser has no Element.setHTML (DOMPurify is loaded there)', () => {
    expect(nativeSanitizer()).toBeNull();
  });

  it('hands setHTML the allow-list: the configured tags, title, and href on links', () => {
    withPermissiveSetHtml()('<p>x</p>');
    const { sanitizer } = configs[0] as { sanitizer: { elements: unknown[]; attributes: string[]; comments: boolean } };
    expect(sanitizer.elements).toHaveLength(CONFIGURED_HTML_TAGS.length);
    expect(sanitizer.elements).toContainEqual({ name: 'a', attributes: ['href'] });
    expect(sanitizer.attributes).toEqual(['title']);
    expect(sanitizer.comments).toBe(false);
  });

  it('keeps nothing beyond the allow-list even when setHTML keeps everything', () => {
    const html = sanitizeWith(
      '<p onclick="x()" style="color:red" class="c">Call <a href="tel:0255500100" target="_blank" rel="opener">us</a>' +
        '<script>alert(1)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a>' +
        '<a href=" java\tscript:alert(1)">y</a><a href="//evil.example/">z</a><iframe src="https://evil.example/"></iframe>' +
        '<svg><a href="https://example.com/">s</a></svg><style>p{}</style><!-- note --></p>',
    );
    expect(html).toBe('<p>Call <a href="tel:0255500100">us</a><a>x</a><a>y</a><a>z</a></p>');
  });

  it('gives what DOMPurify gives for what the server sends', () => {
    const served =
      '<h2 title="t">Hours</h2><p>Mon <strong>8</strong>–<em>5</em><br><a href="https://example.com/a" target="_blank" rel="noopener noreferrer">web</a> ' +
      '<a href="mailto:x@example.com">mail</a> <a href="/contact#map">map</a></p><ul><li>a</li></ul><table><thead><tr><th scope="col">h</th></tr></thead>' +
      '<tbody><tr><td colspan="2">c</td></tr></tbody></table><blockquote><abbr title="MRI">MRI</abbr></blockquote><hr><dl><dt>t</dt><dd>d</dd></dl>';
    const sanitize = withPermissiveSetHtml();
    expect(sanitize(served)).toBe(sanitizeHtml(served));
    expect(sanitize(served, { inertLinks: true })).toBe(sanitizeHtml(served, { inertLinks: true }));
  });

  it('makes links inert in the kiosk: the text stays, no address', () => {
    expect(
      withPermissiveSetHtml()('<p>See <a href="https://example.com/terms" tabindex="0">our terms</a>.</p>', { inertLinks: true }),
    ).toBe('<p>See <a>our terms</a>.</p>');
  });
});

function sanitizeWith(html: string): string {
  return withPermissiveSetHtml()(html);
}
