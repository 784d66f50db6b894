import { describe, expect, it } from 'vitest';

describe('zod-config', () => {
  it('makes zod jitless without importing zod: the setting is there when zod loads after it', async () => {
    await import('../../../src-web/platform/zod-config');
    const { config } = await import('zod');
    expect(config().jitless).toBe(true);
  });

  it('never compiles a parser with new Function (the CSP has no unsafe-eval)', async () => {
    await import('../../../src-web/platform/zod-config');
    const { z } = await import('zod');
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      construct(target, args: string[]) {
        compiled += 1;
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      expect(z.object({ a: z.string(), b: z.number() }).parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
  });
});
