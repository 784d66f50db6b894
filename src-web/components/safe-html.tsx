import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { nativeSanitizer } from '../platform/sanitize-native';

type Sanitizer = (html: string, options?: { inertLinks?: boolean }) => string;

/** True inside the kiosk frame: links in configured HTML render as plain text (nothing leaves the flow). */
export const InertLinks = createContext(false);

/*
 * Configured HTML is always sanitised before it is rendered, and SafeHtml renders nothing until a
 * sanitiser is ready. Where the browser has Element.setHTML, its own sanitiser is ready at once
 * (platform/sanitize-native.ts). Elsewhere DOMPurify is loaded on demand: start() preloads it
 * before the first render when the banner or a custom footer is on, and page loaders preload it
 * with their page, so the HTML appears together with the rest of the page (no layout shift).
 */
let sanitizer: Sanitizer | null = nativeSanitizer();
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Loads the sanitiser once; resolves when SafeHtml can render synchronously. */
export function preloadSanitizer(): Promise<void> {
  if (sanitizer) return Promise.resolve();
  loading ??= import('../platform/sanitize').then((module) => {
    sanitizer = module.sanitizeHtml;
    for (const listener of listeners) listener();
  });
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSanitizer = () => sanitizer;

interface SafeHtmlProps {
  html: string;
  className?: string;
}

/** Renders configured HTML after sanitising it again in the browser (defence in depth). */
export function SafeHtml({ html, className }: SafeHtmlProps) {
  const sanitize = useSyncExternalStore(subscribe, getSanitizer, getSanitizer);
  const inertLinks = useContext(InertLinks);
  useEffect(() => {
    if (!sanitize) void preloadSanitizer();
  }, [sanitize]);
  if (!sanitize) return null;
  return <div className={className} dangerouslySetInnerHTML={{ __html: sanitize(html, { inertLinks }) }} />;
}
