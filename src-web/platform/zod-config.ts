// zod compiles object parsers with `new Function` when it may, and probes for that on first use.
// The portal's CSP has no 'unsafe-eval', so the probe was a CSP violation on every page load:
// parse without compiling (the schemas are small; the difference is not measurable here).
//
// zod keeps its global config on globalThis.__zod_globalConfig and reads it at every parse
// (zod/v4/core/core.js). Setting it there instead of calling zod's `config()` keeps zod (about
// 25 KB gzipped) off the booking home: it loads only with the first schema.
// tests/web/platform/zod-config.test.ts holds zod to that.
interface ZodGlobal {
  __zod_globalConfig?: { jitless?: boolean };
}

// Mutated, not replaced: zod keeps a reference to the object once it has loaded.
const zodConfig = ((globalThis as ZodGlobal).__zod_globalConfig ??= {});
zodConfig.jitless = true;

export {};
