import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import { serverRules } from './eslint/server-rules.js';
import { webRules } from './eslint/web-rules.js';

/** Which of our folders each runtime may import (docs/architecture.md#runtimes). */
const others = (allowed) =>
  ['src-contract', 'src-server', 'src-web', 'src-main', 'src-preload']
    .filter((folder) => !allowed.includes(folder))
    .flatMap((folder) => [`**/${folder}/**`, `../${folder}/**`, `../../${folder}/**`, `../../../${folder}/**`]);

const boundary = (files, allowed, extra = [], paths = []) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths,
        patterns: [{ group: others(allowed), message: 'Import only src-contract here (docs/architecture.md#runtimes).' }, ...extra],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', '.tsbuild/', 'coverage/', 'test-results/', 'data/', '.ci/runtimes/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use node:crypto (randomInt, randomBytes) for anything a person could guess.' },
        // Stubbed out of the website build (vite.web.config.ts, axiosWithoutUnusedParts).
        { object: 'axios', property: 'HttpStatusCode', message: 'Not in the website build: write the status number.' },
        { object: 'axios', property: 'CancelToken', message: 'Not in the website build: pass an AbortSignal.' },
      ],
    },
  },
  {
    files: ['src-web/**/*.{ts,tsx}', 'tests/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  boundary(['src-contract/**/*.ts'], ['src-contract'], [{ group: ['@contract/*'], message: 'Inside src-contract use relative imports.' }]),
  boundary(['src-server/**/*.ts'], ['src-contract']),
  boundary(
    ['src-web/**/*.{ts,tsx}'],
    ['src-contract'],
    [{ group: ['electron', 'node:*', 'fs', 'path'], message: 'The web app runs in a browser.' }],
    // Stubbed out of the website build (vite.web.config.ts, axiosWithoutUnusedParts).
    [{ name: 'axios', importNames: ['HttpStatusCode', 'CancelToken'], message: 'Not in the website build: status numbers, AbortSignal.' }],
  ),
  boundary(['src-main/**/*.ts'], ['src-contract']),
  boundary(['src-preload/**/*.ts'], ['src-contract']),
  {
    // Only the composition root touches the real Electron module; everything else takes the injected surface.
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Take the injected ElectronSurface instead (src-main/electron-surface.ts).' }],
          patterns: [{ group: others(['src-contract']), message: 'src-main may import only src-contract.' }],
        },
      ],
    },
  },
  {
    // The web app never calls axios outside its api/ folder (stores call api modules).
    files: ['src-web/**/*.{ts,tsx}'],
    ignores: ['src-web/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'axios', message: 'Call a typed function in src-web/api/ from a store.' }],
          patterns: [
            { group: others(['src-contract']), message: 'src-web may import only src-contract.' },
            { group: ['electron', 'node:*'], message: 'The web app runs in a browser.' },
          ],
        },
      ],
    },
  },
  {
    // No import cycles anywhere: a cycle means two files are one unit or a shared piece belongs lower down.
    files: ['src-*/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['src-*/tsconfig.json', 'tests/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // File and folder names are kebab-case (middle extensions such as .routes.test stay free).
    files: ['src-*/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}', 'scripts/**/*.mjs', 'eslint/**/*.js'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': ['error', { '**/*.{ts,tsx,mjs,js}': 'KEBAB_CASE' }, { ignoreMiddleExtensions: true }],
      'check-file/folder-naming-convention': ['error', { 'src-*/**/': 'KEBAB_CASE', 'tests/**/': 'KEBAB_CASE' }],
    },
  },
  ...serverRules,
  ...webRules,
);
