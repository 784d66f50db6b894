// Import zones inside src-server (see docs/architecture.md). Each entry is an ESLint flat-config object.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importX } from 'eslint-plugin-import-x';

const root = fileURLToPath(new URL('..', import.meta.url));
const modules = readdirSync(new URL('../src-server/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export const serverRules = [
  {
    files: ['src-server/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            // Platform is the layer under the modules: it must work without any of them.
            {
              target: 'src-server/platform/**',
              from: 'src-server/modules/**',
              message: 'src-server/platform never imports a module; move the shared piece into platform or pass it in.',
            },
            // A module reaches another only through that module's public.ts (its own files and platform/db are free).
            ...modules.map((name) => ({
              target: `src-server/modules/${name}/**`,
              from: 'src-server/modules/**',
              except: [`**/src-server/modules/${name}/**`, '**/src-server/modules/*/public.ts'],
              message: `Import another module only through its public.ts (src-server/modules/<module>/public.ts).`,
            })),
            // The database layer (migrations, seeds) sits under the modules too: where it needs one, only its public.ts.
            {
              target: 'src-server/db/**',
              from: 'src-server/modules/**',
              except: ['**/src-server/modules/*/public.ts'],
              message: 'src-server/db imports a module only through its public.ts (src-server/modules/<module>/public.ts).',
            },
          ],
        },
      ],
    },
  },
];
