import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../../src-web/platform/page-title';

describe('pageTitle', () => {
  it('should be the radiology name alone when no meta title is set', () => {
    expect(pageTitle('Harbour & Range Radiology', null)).toBe('Harbour & Range Radiology');
    expect(pageTitle('Harbour & Range Radiology', undefined)).toBe('Harbour & Range Radiology');
  });

  it('should append " | " and the meta title when one is set', () => {
    expect(pageTitle('Harbour & Range Radiology', 'Patient portal')).toBe('Harbour & Range Radiology | Patient portal');
  });

  it('should treat a blank meta title as not set', () => {
    expect(pageTitle('Harbour & Range Radiology', '   ')).toBe('Harbour & Range Radiology');
  });
});
