import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const alias = { '@contract': fromRoot('./src-contract') };
const outDir = fromRoot('./dist/web');

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
  plugins: [react(), authRedirectPage()],
  resolve: { alias },
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
