import { config } from 'zod';

// zod compiles object parsers with `new Function` when it may, and probes for that on first use.
// The portal's CSP has no 'unsafe-eval', so the probe was a CSP violation on every page load:
// parse without compiling (the schemas are small; the difference is not measurable here).
config({ jitless: true });
