import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeHtml } from './index-html';

/**
 * The page's own stylesheets written into the served HTML (docs/web.md#budgets), so the first
 * paint (first-paint.ts) waits for no request but the page itself: on a phone network a
 * stylesheet costs a round trip before anything shows, and on HTTP/1.1 it queued behind the
 * scripts' six connections. The link stays, with `media="not all"`: it never applies, loads at
 * the lowest priority, and tells the app's lazy chunks (Vite's preload helper looks for it) that
 * the sheet is there, so they do not add it again at the end of <head>, out of cascade order.
 */

export interface InlineStylesheet {
  /** The link element as the build wrote it. */
  tag: string;
  css: string;
}

/** The build's stylesheet links (hashed files under /assets/). */
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*\shref="(\/assets\/[\w.-]+\.css)"[^>]*>/g;
/** Larger sheets stay links: the HTML is sent with every page load, the sheet is cached. */
export const MAX_INLINE_CSS_BYTES = 32 * 1024;

/** Reads the stylesheets `template` links to, except any too large or that could end the style element. */
export async function readInlineStylesheets(template: string, webRoot: string): Promise<InlineStylesheet[]> {
  const sheets: InlineStylesheet[] = [];
  for (const [tag, href] of template.matchAll(STYLESHEET_LINK)) {
    if (href === undefined) continue;
    const css = await readFile(join(webRoot, href), 'utf8').catch(() => null);
    if (css === null || Buffer.byteLength(css) > MAX_INLINE_CSS_BYTES || /<\/style|<!--/i.test(css)) continue;
    sheets.push({ tag, css });
  }
  return sheets;
}

/** The page with each sheet's rules in a style element (with the page's CSP nonce) where its link was. */
export function inlineStylesheets(page: string, sheets: readonly InlineStylesheet[], nonce: string): string {
  let result = page;
  for (const { tag, css } of sheets) {
    const dormantLink = tag.replace('<link ', '<link media="not all" ');
    result = result.replace(tag, () => `<style nonce="${escapeHtml(nonce)}">${css}</style>${dormantLink}`);
  }
  return result;
}
