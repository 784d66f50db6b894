import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const alias = { '@contract': fromRoot('./src-contract') };
const outDir = fromRoot('./dist/web');

/**
 * React Router 7's package exports name only its development build (dev warnings on; the
 * maintainers call this temporary: remix-run/react-router#12532, #14102). The website takes the
 * production build it ships beside it, identical but for those warnings (about 0.5 KB gzipped).
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: fromRoot('./node_modules/react-router/dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: fromRoot('./node_modules/react-router/dist/production/dom-export.mjs') },
];

/**
 * The page the staff identity provider returns to (src-web/auth-redirect.html, served at
 * /auth/redirect; docs/identity.md#the-browser), built on its own after the portal: as a second
 * input of the portal's build it would share chunks with it (Vite's module-preload polyfill),
 * adding a request to the booking home.
 */
function authRedirectPage(): Plugin {
  return {
    name: 'portal-auth-redirect-page',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        root: fromRoot('./src-web'),
        resolve: { alias },
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          minify: true,
          sourcemap: 'hidden',
          target: 'es2022',
          modulePreload: false,
          rolldownOptions: { input: { 'auth-redirect': fromRoot('./src-web/auth-redirect.html') } },
        },
      });
    },
  };
}

const AXIOS_FETCH_STUB = '\0portal-axios-fetch-adapter';

/**
 * axios picks the first adapter the environment has, in the order ['xhr', 'http', 'fetch']: in a
 * browser that is always XHR, and src-web/api/client.ts never asks for another. Its fetch adapter
 * (with the stream helpers only it uses, about 4 KB gzipped) would ride in the booking home's entry
 * chunk unused, so the build answers axios's import of it with "not available". A renamed
 * import in a later axios brings the adapter back (bench:web shows it); a changed export fails
 * the build.
 */
function axiosWithoutFetchAdapter(): Plugin {
  return {
    name: 'portal-axios-without-fetch-adapter',
    enforce: 'pre',
    resolveId(source, importer) {
      const fromAdapters = importer !== undefined && /[\\/]axios[\\/]lib[\\/]adapters[\\/]adapters\.js$/.test(importer);
      return fromAdapters && source === './fetch.js' ? AXIOS_FETCH_STUB : null;
    },
    load(id) {
      return id === AXIOS_FETCH_STUB ? 'export const getFetch = () => false;\n' : null;
    },
  };
}

const SYNC_EXTERNAL_STORE = '\0portal-use-sync-external-store';

/**
 * react-i18next imports useSyncExternalStore from the use-sync-external-store shim, written for
 * React before 18; React 19 has it built in, which the shim would hand over anyway after carrying
 * its fallback into the entry chunk. The build gives React's own directly.
 */
function reactOwnSyncExternalStore(): Plugin {
  return {
    name: 'portal-react-own-sync-external-store',
    enforce: 'pre',
    resolveId(source) {
      return source === 'use-sync-external-store/shim' ? SYNC_EXTERNAL_STORE : null;
    },
    load(id) {
      return id === SYNC_EXTERNAL_STORE ? "export { useSyncExternalStore } from 'react';\n" : null;
    },
  };
}

/**
 * An area's public.ts (src-web/features/<area>/public.ts) holds re-exports and constants, nothing
 * that runs for its effect. Declared free of side effects, importing one name from it brings only
 * the module behind that name: otherwise Rolldown puts every re-exported module in the importer's
 * chunk (the booking page's questionnaire hooks brought the kiosk's questionnaire store and modal
 * into the booking home, about 2.5 KB gzipped).
 */
function publicFilesArePure(id: string): boolean | undefined {
  return /[\\/]src-web[\\/]features[\\/][^\\/]+[\\/]public\.ts$/.test(id) ? false : undefined;
}

/**
 * The website build of src-web (served by src-server from dist/web). The kiosk's
 * electron.vite.config.ts builds the same index.html as its renderer; this file is the
 * one the budgets in docs/web.md#budgets are measured on, so it is always minified.
 */
export default defineConfig({
  root: fromRoot('./src-web'),
  plugins: [react(), axiosWithoutFetchAdapter(), reactOwnSyncExternalStore(), authRedirectPage()],
  resolve: { alias: [{ find: '@contract', replacement: alias['@contract'] }, ...reactRouterProduction] },
  build: {
    outDir,
    emptyOutDir: true,
    minify: true,
    // scripts/bench-web.mjs reads the chunk graph from it to measure what each route loads.
    manifest: true,
    // Maps are written for error reporting but not referenced from the bundles,
    // so browsers do not fetch them and the source is not advertised.
    sourcemap: 'hidden',
    target: 'es2022',
    // Route chunks are small; keep the warning meaningful for the shared vendor chunk.
    chunkSizeWarningLimit: 600,
    rolldownOptions: { treeshake: { moduleSideEffects: publicFilesArePure } },
  },
  server: {
    // `npm run dev` style work: the API (and the bootstrap config) come from the real server.
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
