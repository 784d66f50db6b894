import { preloadCatalogue } from '../i18n/create-i18n';
import { resolveLocale } from '../i18n/locale';
import { preloadSanitizer } from '../components/safe-html';
import { translationsPath } from '@contract/api/locales';
import { readEmbeddedConfig } from './bootstrap-config';

/**
 * Starts the downloads the first render waits for: the language's chunks, the sanitiser when the
 * configuration has HTML to show, and the server's translation overlay. main.tsx imports this
 * module before anything else, so these requests are on the wire while the rest of the app's
 * code (React, the router, the stores) is still being evaluated, instead of after it: on a slow
 * phone that evaluation is the longest step before the first paint (Lighthouse LCP).
 *
 * The overlay is announced with <link rel=preload as=fetch>: the browser fetches it now and hands
 * the response to the API client's own request later, so axios stays the one HTTP client.
 */
export function startEarlyRequests(doc: Document): void {
  const config = readEmbeddedConfig(doc);
  if (!config) return;
  const locale = resolveLocale(config.app.locale, () => undefined);
  preloadCatalogue(locale);
  const { app, radiology } = config;
  if ((app.bannerEnabled && app.bannerHtml) || (radiology.showCustomHeaderAndFooter && radiology.customFooter)) void preloadSanitizer();
  // The served index.html announces it already (src-server/platform/index-html.ts); not twice.
  const href = translationsPath(locale);
  if (doc.head.querySelector(`link[rel="preload"][href="${href}"]`)) return;
  const link = doc.createElement('link');
  link.rel = 'preload';
  link.as = 'fetch';
  link.crossOrigin = 'use-credentials';
  link.href = href;
  doc.head.append(link);
}

startEarlyRequests(document);
