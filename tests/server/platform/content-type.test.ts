import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../../src-server/platform/content-type';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('detectImageType', () => {
  it.each([
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), 'image/png'],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0), 'image/jpeg'],
    ['GIF', text('GIF89a....'), 'image/gif'],
    ['WebP', text('RIFF\0\0\0\0WEBPVP8 '), 'image/webp'],
    ['ICO', bytes(0, 0, 1, 0, 1, 0, 16, 16), 'image/x-icon'],
    ['SVG', text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>'), 'image/svg+xml'],
  ])('recognises %s by its bytes', (_name, content, expected) => {
    expect(detectImageType(content)).toBe(expected);
  });

  it.each([
    ['HTML named .png', text('<html><script>alert(1)</script></html>')],
    ['SVG with a script', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['SVG with an event handler', text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>')],
    ['PDF', text('%PDF-1.7')],
    ['empty file', bytes()],
    ['truncated PNG signature', bytes(0x89, 0x50, 0x4e)],
  ])('refuses %s', (_name, content) => {
    expect(detectImageType(content)).toBeNull();
  });
});
