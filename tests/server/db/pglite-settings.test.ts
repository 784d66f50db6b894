import { describe, expect, it } from 'vitest';
import { automaticSharedBuffersMb } from '../../../src-server/db/pglite-settings';

const MB = 1024 * 1024;

describe("PGlite's shared buffer pool, sized by the database", () => {
  it('takes a quarter of the database in 16 MB steps, from 16 MB to 256 MB', () => {
    expect(automaticSharedBuffersMb(0)).toBe(16);
    expect(automaticSharedBuffersMb(64 * MB)).toBe(16);
    expect(automaticSharedBuffersMb(64 * MB + 1)).toBe(32);
    expect(automaticSharedBuffersMb(400 * MB)).toBe(112);
    expect(automaticSharedBuffersMb(1024 * MB)).toBe(256);
    expect(automaticSharedBuffersMb(50 * 1024 * MB)).toBe(256);
  });
});
