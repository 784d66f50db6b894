// The website's size budgets (docs/web.md#budgets), measured one way for `npm run bench:web` and
// for the end-to-end check that fails CI when a bundle grows past them
// (tests/e2e/bundle-budgets.spec.ts). Sizes are gzip -9 of the built files, as the budgets are
// written in gzip; unlike timings, they are exact, so they can fail a test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const KB = 1024;

export const BUDGETS = {
  homeJsGzipKb: 170,
  homeCssGzipKb: 50,
  flowJsGzipKb: 350,
  /** Our own budget: SurveyJS alone is about 350 KB gzipped. */
  questionnaireJsGzipKb: 380,
  lighthouseMobileMin: 95,
  /** Largest contentful paint in Lighthouse's mobile simulation, median of the runs. */
  lighthouseLcpMaxMs: 2000,
};

/** The booking home is interactive when the exam search field can be typed into. */
export const BOOKING_READY_SELECTOR = '[data-booking-ready="true"]';

/** The scripts and stylesheets a phone-sized page downloads until the booking home is interactive and the network is quiet. */
export async function observeHome(page, origin, dist) {
  const files = new Set();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === origin && /\.(js|css)$/.test(url.pathname)) files.add(url.pathname.replace(/^\//, ''));
  });
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.waitForSelector(BOOKING_READY_SELECTOR, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const built = [...files].filter((file) => existsSync(join(dist, file)));
  return { js: built.filter((file) => file.endsWith('.js')), css: built.filter((file) => file.endsWith('.css')) };
}

/** The files a chunk needs before it runs: itself, its static imports (recursively) and their CSS. */
function staticClosure(manifest, key, into = { js: new Set(), css: new Set() }, seen = new Set()) {
  if (seen.has(key)) return into;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return into;
  if (chunk.file.endsWith('.js')) into.js.add(chunk.file);
  for (const css of chunk.css ?? []) into.css.add(css);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into, seen);
  return into;
}

/**
 * The measured sizes, from the built website (`dist`, with its Vite manifest) and the home's files:
 * - the booking home: what the page downloaded until interactive;
 * - the whole booking flow: that plus the static import closure of every chunk built from
 *   src-web/features/booking (the later steps and their dialogs) and the chunk a failed request
 *   loads (api/client.ts parses error bodies with the lazily loaded contract);
 * - the questionnaire modal (SurveyJS) beyond the flow: loaded only for exams with a questionnaire.
 */
export function measureSizes(dist, home) {
  const cache = new Map();
  const gzipSize = (file) => {
    if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
    return cache.get(file);
  };
  const sum = (files) => [...files].reduce((total, file) => total + gzipSize(file), 0);
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const flow = { js: new Set(home.js), css: new Set(home.css) };
  const flowKeys = Object.keys(manifest).filter((key) => key.startsWith('features/booking/') || key.endsWith('src-contract/errors.ts'));
  for (const key of flowKeys) staticClosure(manifest, key, flow);
  if (!flowKeys.some((key) => key.startsWith('features/booking/')))
    throw new Error('no chunk from src-web/features/booking in the manifest');
  const questionnaireKey = 'features/questionnaires/survey-modal.tsx';
  if (!manifest[questionnaireKey]) throw new Error(`no ${questionnaireKey} chunk in the manifest`);
  const questionnaireJs = [...staticClosure(manifest, questionnaireKey).js].filter((file) => !flow.js.has(file));
  return {
    sizes: {
      homeJsGzipBytes: sum(home.js),
      homeCssGzipBytes: sum(home.css),
      flowJsGzipBytes: sum(flow.js),
      flowCssGzipBytes: sum(flow.css),
      questionnaireJsGzipBytes: sum(questionnaireJs),
    },
    flow,
    gzipSize,
  };
}

function kb(bytes) {
  return Math.round((bytes / KB) * 10) / 10;
}

/** One row a size budget: what was measured, the limit, and whether it passes. */
export function sizeResults(sizes) {
  const row = (budget, bytes, limitKb, note = '') => ({
    budget,
    value: `${kb(bytes)} KB`,
    bytes,
    limit: `<= ${limitKb} KB${note}`,
    pass: bytes <= limitKb * KB,
  });
  return [
    row('booking home JS before interactive (gzip)', sizes.homeJsGzipBytes, BUDGETS.homeJsGzipKb),
    row('booking home CSS before interactive (gzip)', sizes.homeCssGzipBytes, BUDGETS.homeCssGzipKb),
    row('whole booking flow JS (gzip)', sizes.flowJsGzipBytes, BUDGETS.flowJsGzipKb),
    row('questionnaire modal JS beyond the flow (gzip)', sizes.questionnaireJsGzipBytes, BUDGETS.questionnaireJsGzipKb, ' (ours)'),
  ];
}
