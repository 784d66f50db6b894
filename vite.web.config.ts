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

/**
 * Parts of axios the website never runs, answered with a stub (importer under axios/lib, the
 * import as written there, the stub's code). A renamed import in a later axios brings the part
 * back (bench:web shows it); a changed export fails the build.
 *
 * - The fetch adapter (with the stream helpers only it uses, about 4 KB gzipped): axios picks the
 *   first adapter the environment has, in the order ['xhr', 'http', 'fetch'], in a browser always
 *   XHR, and src-web/api/client.ts never asks for another.
 * - `axios.HttpStatusCode` (a table of names, 0.8 KB) and the deprecated `axios.CancelToken`
 *   (0.25 KB): src-web/api uses neither (AbortSignal cancels); eslint.config.js forbids both.
 */
const AXIOS_STUBS = [
  { importer: 'adapters/adapters.js', source: './fetch.js', code: 'export const getFetch = () => false;' },
  { importer: 'axios.js', source: './helpers/HttpStatusCode.js', code: 'export default Object.freeze({});' },
  {
    importer: 'axios.js',
    source: './cancel/CancelToken.js',
    code: "export default class CancelToken { constructor() { throw new Error('CancelToken is not in the website build: pass an AbortSignal'); } }",
  },
];

function axiosWithoutUnusedParts(): Plugin {
  const stubId = (index: number) => `\0portal-axios-stub-${index}`;
  return {
    name: 'portal-axios-without-unused-parts',
    enforce: 'pre',
    resolveId(source, importer) {
      const path = importer?.replaceAll('\\', '/') ?? '';
      const index = AXIOS_STUBS.findIndex((stub) => source === stub.source && path.endsWith(`/axios/lib/${stub.importer}`));
      return index === -1 ? null : stubId(index);
    },
    load(id) {
      const stub = AXIOS_STUBS.find((_, index) => id === stubId(index));
      return stub === undefined ? null : `${stub.code}\n`;
    },
  };
}

/** react-zoom-pan-pinch's injected stylesheet, as its ES build creates it. */
const ZOOM_STYLE_ELEMENT = "var style = document.createElement('style');";

/**
 * react-zoom-pan-pinch injects its own stylesheet (the wrapper's overflow and the content's
 * transform origin) as a <style> element, which our CSP (style-src 'self' 'nonce-…') refuses:
 * the image viewer then lost those rules and the console logged two violations per page. The
 * build gives that element the page's nonce from meta[name=csp-nonce], as antd and SurveyJS get it
 * (src-web/platform/bootstrap-config.ts). A later version that creates it differently fails the build.
 */
export function zoomStylesWithNonce(): Plugin {
  return {
    name: 'portal-zoom-styles-with-nonce',
    transform(code, id) {
      if (!/[\\/]react-zoom-pan-pinch[\\/]dist[\\/]index\.esm\.js$/.test(id)) return null;
      if (!code.includes(ZOOM_STYLE_ELEMENT))
        throw new Error('react-zoom-pan-pinch no longer creates its stylesheet as expected: see zoomStylesWithNonce');
      // Added on the same line, so the library's source map stays right (map: null keeps it).
      const withNonce = code.replace(
        ZOOM_STYLE_ELEMENT,
        `${ZOOM_STYLE_ELEMENT} var portalNonce = document.querySelector('meta[name="csp-nonce"]'); if (portalNonce && portalNonce.content) style.nonce = portalNonce.content;`,
      );
      return { code: withNonce, map: null };
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
  plugins: [react(), axiosWithoutUnusedParts(), reactOwnSyncExternalStore(), zoomStylesWithNonce(), authRedirectPage()],
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
