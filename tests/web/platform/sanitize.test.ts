import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../../src-web/platform/sanitize';

describe('sanitizeHtml', () => {
  it('keeps safe links and drops targets, scripts and javascript: addresses', () => {
    const html = sanitizeHtml(
      '<p>Call <a href="tel:0255500100">us</a> or <a href="https://example.com" target="_blank">read</a><script>alert(1)</script><a href="javascript:alert(1)">x</a></p>',
    );
    expect(html).toContain('<a href="tel:0255500100">us</a>');
    expect(html).toContain('<a href="https://example.com">read</a>');
    expect(html).not.toContain('script');
    expect(html).not.toContain('javascript:');
  });

  it('makes links inert in the kiosk: the text stays, no address, target or tab stop', () => {
    const html = sanitizeHtml('<p>See <a href="https://example.com/terms" target="_blank" tabindex="0">our terms</a>.</p>', {
      inertLinks: true,
    });
    expect(html).toBe('<p>See <a>our terms</a>.</p>');
    const holder = document.createElement('div');
    holder.innerHTML = html;
    expect(holder.querySelectorAll('a[href], [tabindex]')).toHaveLength(0);
    expect(holder.textContent).toBe('See our terms.');
  });
});
