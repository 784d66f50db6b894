import { describe, expect, it } from 'vitest';
import { maskPhone } from '../../../../src-server/modules/patient-access/otp-messages';

describe('maskPhone', () => {
  it.each([
    ['0491570006', '*******006'],
    ['+61 491 570 006', '********006'],
    ['12', '**'],
  ])('masks the number %s as %s', (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });
});
