import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contract = fileURLToPath(new URL('./src-contract', import.meta.url));
const alias = { '@contract': contract };

/**
 * Three vitest projects, one per runtime. The end-to-end journeys run in Playwright
 * (scripts/run-e2e.mjs), not here.
 */
export default defineConfig({
  test: {
    // PGlite instances are memory-heavy and CPU-bound; two cores, so few files at once. Set once
    // for every project: vitest 4 refuses projects with different maxWorkers in one group.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/web/helpers/setup.ts'],
          // The default 5 s is too short on a loaded CI machine for a page test with several steps.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'main',
          environment: 'node',
          include: ['tests/main/**/*.test.ts'],
          // Property tests run thousands of cases: 5 s is too short when the CI machine is loaded.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
