import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const alias = { '@contract': fromRoot('./src-contract') };

/**
 * The kiosk build (electron-vite 6, checked against its dist/ presets):
 * - main: src-main/main.ts -> out/main/index.js. package.json has "type": "module" and Electron 45
 *   supports an ESM main, so electron-vite emits ES format; the file keeps the .js name because
 *   the nearest package.json marks .js as ESM. Dependencies (zod, @sentry/electron) are bundled so
 *   the packaged app needs no node_modules (electron-builder.yml excludes them); only electron and
 *   Node built-ins stay external.
 * - preload: src-preload/index.ts -> out/preload/index.cjs, one self-contained CommonJS file:
 *   a sandboxed preload cannot load ESM or sibling chunks (electron-vite docs, isolated-build),
 *   hence isolatedEntries, externalizeDeps: false and format 'cjs'.
 * - renderer: the same src-web/index.html the server serves, built to out/renderer. The kiosk
 *   window loads the portal over the network; this build exists so `electron-vite dev` and the
 *   renderer typecheck/bundle stay honest, and is not packaged (electron-builder.yml).
 * electron-vite 6.0 picks its syntax targets from Electron's major and knows majors up to 44; for
 * 45 it uses 44's (node24.18, chrome152); Electron 45's Node and Chromium are no older, so they run it.
 */
export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      externalizeDeps: false,
      sourcemap: true,
      rolldownOptions: {
        input: { index: fromRoot('./src-main/main.ts') },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      externalizeDeps: false,
      isolatedEntries: true,
      rolldownOptions: {
        input: { index: fromRoot('./src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: fromRoot('./src-web'),
    resolve: { alias },
    plugins: [react()],
    build: {
      outDir: fromRoot('./out/renderer'),
      rolldownOptions: {
        input: { index: fromRoot('./src-web/index.html') },
      },
    },
  },
});
