import { describe, expect, it } from 'vitest';
import { sanitizeConfiguredHtml, sanitizeOptionalHtml } from '../../../src-server/platform/html-sanitizer';

describe('sanitizeConfiguredHtml', () => {
  it.each([
    ['<p>a</p><script>alert(1)</script>', '<p>a</p>'],
    ['<img src="x" onerror="alert(1)">text', 'text'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="http://plain.example">x</a>', '<a>x</a>'],
    ['<a href="//evil.example">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,hi">x</a>', '<a>x</a>'],
    ['<p onclick="alert(1)" style="color:red">x</p>', '<p>x</p>'],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<form action="/x"><input name="dob"></form>', ''],
    ['<iframe src="https://evil.example"></iframe>x', 'x'],
  ])('removes danger from %j', (input, expected) => {
    expect(sanitizeConfiguredHtml(input)).toBe(expected);
  });

  it.each([
    ['<h2>Title</h2><p><strong>bold</strong> and <em>em</em></p><ul><li>one</li></ul>'],
    ['<a href="https://example.com/page">https</a>'],
    ['<a href="mailto:bookings@example.com">mail</a>'],
    ['<a href="tel:+61255500100">call</a>'],
    ['<a href="/privacy">internal</a>'],
  ])('keeps plain formatting and allowed links: %j', (input) => {
    expect(sanitizeConfiguredHtml(input)).toBe(input);
  });

  it('adds rel=noopener noreferrer to links that open a new tab and drops other targets', () => {
    expect(sanitizeConfiguredHtml('<a href="https://a.example" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeConfiguredHtml('<a href="https://a.example" target="_top">x</a>')).toBe('<a href="https://a.example">x</a>');
  });

  it('passes null through', () => {
    expect(sanitizeOptionalHtml(null)).toBeNull();
  });
});
