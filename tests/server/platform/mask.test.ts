import { describe, expect, it } from 'vitest';
import { maskEmail } from '../../../src-server/platform/mask';

describe('maskEmail', () => {
  it.each([
    ['liam.example@example.com', 'l***@example.com'],
    ['a@b.co', 'a***@b.co'],
    ['broken', '***'],
  ])('masks the e-mail %s as %s', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});
