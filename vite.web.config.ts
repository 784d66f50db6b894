import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The website build of src-web (served by src-server from dist/web). The kiosk's
 * electron.vite.config.ts builds the same index.html as its renderer; this file is the
 * one the budgets in docs/web.md#budgets are measured on, so it is always minified.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src-web', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: { '@contract': fileURLToPath(new URL('./src-contract', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
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
    // The portal, and the tiny page the identity provider returns to (served at /auth/redirect).
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./src-web/index.html', import.meta.url)),
        'auth-redirect': fileURLToPath(new URL('./src-web/auth-redirect.html', import.meta.url)),
      },
    },
  },
  server: {
    // `npm run dev` style work: the API (and the bootstrap config) come from the real server.
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
