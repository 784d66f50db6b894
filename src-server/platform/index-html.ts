import type { BootstrapConfig } from '@contract/api/config';
import { bannerPositionDeclarations, bannerPositionOf } from '@contract/shell/banner-position';
import { FALLBACK_LOCALE, supportedLocaleOf, translationsPath } from '@contract/api/locales';
import { themeVariables } from '@contract/shell/theme-variables';

/**
 * The HTML contract between server and web (docs/rules/shell.md#configuration): the template's single
 * `<!--portal-head-->…<!--/portal-head-->` block is replaced with the page title, the meta tags
 * from the configuration, the favicon, the CSP nonce and the bootstrap configuration, so they
 * are right before any script runs (and for crawlers and link previews that run none).
 */

export const HEAD_START = '<!--portal-head-->';
export const HEAD_END = '<!--/portal-head-->';

export class IndexTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexTemplateError';
  }
}

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/**
 * JSON that is safe inside a <script> element: no `<` (so no `</script>` or `<!--`) and no `>`
 * or `&` either; JSON.parse reads the \u escapes back as the same characters. U+2028/2029 are
 * escaped too, for old parsers that treat them as line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** The title rule (docs/rules/shell.md#page-title): the radiology name, then ' | ' and the meta title when set. */
export function pageTitle(bootstrap: { app: { metaTitle: string | null }; radiology: { name: string } }): string {
  const metaTitle = bootstrap.app.metaTitle?.trim() ?? '';
  return metaTitle === '' ? bootstrap.radiology.name : `${bootstrap.radiology.name} | ${metaTitle}`;
}

function meta(attribute: 'name' | 'property', key: string, content: string | null): string[] {
  const value = content?.trim() ?? '';
  return value === '' ? [] : [`<meta ${attribute}="${key}" content="${escapeHtml(value)}">`];
}

/** The head block that replaces the markers. */
export function renderPortalHead(bootstrap: BootstrapConfig, nonce: string): string {
  const { app } = bootstrap;
  return [
    `<title>${escapeHtml(pageTitle(bootstrap))}</title>`,
    ...meta('name', 'description', app.description),
    ...meta('name', 'keywords', app.keywords),
    ...meta('property', 'og:description', app.socialDescription),
    ...meta('name', 'google-site-verification', app.searchVerificationId),
    '<link rel="icon" href="/api/assets/application/favicon">',
    `<meta name="csp-nonce" content="${escapeHtml(nonce)}">`,
    renderThemeStyle(bootstrap, nonce),
    `<script id="portal-config" type="application/json" nonce="${escapeHtml(nonce)}">${jsonForScript(bootstrap)}</script>`,
    // The first render waits for the translation overlay: its request starts with the page, not
    // after the app's code has downloaded (src-web/platform/early-requests.ts uses this link).
    `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${escapeHtml(translationsPath(supportedLocaleOf(app.locale) ?? FALLBACK_LOCALE))}">`,
  ].join('');
}

/** A CSS value that cannot end its declaration or its rule, or leave the style element. */
const SAFE_CSS_VALUE = /^[^;{}<>\\\n\r]*$/;

/**
 * The provider's theme as CSS variables on the root element, so the first paint (first-paint.ts)
 * has the provider's colours; a style element with the page's nonce, as the CSP allows no style
 * attribute. The app sets the same variables once it runs (src-web/shell/app-frame.tsx).
 */
export function renderThemeStyle(bootstrap: BootstrapConfig, nonce: string): string {
  const declarations = Object.entries(themeVariables(bootstrap.theme))
    .filter(([, value]) => SAFE_CSS_VALUE.test(value))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  // The provider's banner position (whitelisted declarations only, docs/rules/shell.md#banner), as the
  // app applies it to its banner; html body outweighs banner.css's own .pp-banner rule.
  const position = bannerPositionDeclarations(bannerPositionOf(bootstrap.radiology.bannerPositionCss));
  // The whitelist leaves only names, numbers, units and keywords; anything else writes nothing.
  const banner = /^[a-z0-9:;.%\- ]+$/.test(position) ? `html body .pp-banner{${position}}` : '';
  // html:root outweighs the stylesheet's own :root defaults, which come later in the page.
  return `<style nonce="${escapeHtml(nonce)}">html:root{${declarations}}${banner}</style>`;
}

/** The marker inside `<div id="root">` that the first paint (first-paint.ts) replaces; a template without it has none. */
export const FIRST_PAINT_MARKER = '<!--portal-first-paint-->';

/**
 * The served index.html. Throws IndexTemplateError when the template does not hold exactly one
 * marker block, because a page without its configuration would start wrong in subtle ways.
 */
export function renderIndexHtml(template: string, bootstrap: BootstrapConfig, nonce: string, firstPaint = ''): string {
  const start = template.indexOf(HEAD_START);
  const end = template.indexOf(HEAD_END);
  if (start === -1 || end === -1 || end < start || template.indexOf(HEAD_START, start + 1) !== -1) {
    throw new IndexTemplateError(`index.html must contain exactly one ${HEAD_START}…${HEAD_END} block in <head> (see the HTML contract).`);
  }
  // A function replacement is not used here on purpose: slicing keeps `$&`-style sequences in
  // the configuration from being interpreted.
  const page = template.slice(0, start) + renderPortalHead(bootstrap, nonce) + template.slice(end + HEAD_END.length);
  return page.replace(FIRST_PAINT_MARKER, () => firstPaint);
}
