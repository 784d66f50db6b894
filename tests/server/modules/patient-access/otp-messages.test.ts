import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone } from '../../../../src-server/modules/patient-access/otp-messages';

describe('masked destinations', () => {
  it.each([
    ['liam.example@example.com', 'l***@example.com'],
    ['a@b.co', 'a***@b.co'],
    ['broken', '***'],
  ])('masks the e-mail %s as %s', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it.each([
    ['0491570006', '*******006'],
    ['+61 491 570 006', '********006'],
    ['12', '**'],
  ])('masks the number %s as %s', (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });
});
