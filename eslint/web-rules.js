// Import zones inside src-web (see docs/architecture.md). Each entry is an ESLint flat-config object.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const features = 'src-web/features';
const areas = readdirSync(new URL(`../${features}`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Zones are absolute globs; `except` is matched against the absolute path of the imported file.
const publicFile = `${root}${features}/*/public.ts`;

const zones = [
  // An area is one unit: another area sees only what it chose to put in its public.ts.
  ...areas.map((area) => ({
    target: `${features}/${area}/**`,
    from: `${features}/!(${area})/**`,
    except: [publicFile],
    message: `Import another area only through its public.ts (src-web/features/<area>/public.ts).`,
  })),
  // The frame, shared UI, app-wide stores and the layers below never depend on an area; only the
  // composition (root-store.ts, routes.tsx, app.tsx, start.tsx, main.tsx) brings areas in.
  {
    target: [
      'src-web/shell/**',
      'src-web/components/**',
      'src-web/stores/!(root-store).ts',
      'src-web/platform/**',
      'src-web/api/**',
      'src-web/i18n/**',
    ],
    from: `${features}/**`,
    message: 'Shared code (shell, components, stores, platform, api, i18n) never imports an area; move the piece down or pass it in.',
  },
];

export const webRules = [
  {
    files: ['src-web/**/*.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones }] },
  },
];
