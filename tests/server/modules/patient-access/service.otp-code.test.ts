import { describe, expect, it } from 'vitest';
import { generateOtpCode } from '../../../../src-server/modules/patient-access/service';

describe('one-time password codes', () => {
  it('are always 6 digits, keep leading zeros and spread evenly over the first digit', () => {
    const counts = Array.from({ length: 10 }, () => 0);
    for (let index = 0; index < 100_000; index += 1) {
      const code = generateOtpCode();
      if (!/^\d{6}$/.test(code)) throw new Error(`not 6 digits: ${code}`);
      counts[Number(code[0])] = (counts[Number(code[0])] ?? 0) + 1;
    }
    // 10 000 expected per digit; 5 standard deviations is about ±475.
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    expect(counts[0]).toBeGreaterThan(0);
  });
});
