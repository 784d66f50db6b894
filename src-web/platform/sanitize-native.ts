import { CONFIGURED_HTML_TAGS } from '@contract/configured-html';
import { FORBIDDEN_TAGS, isAllowedUri } from './sanitize-rules';

/**
 * Sanitises configured HTML with the browser's own sanitiser (Element.setHTML, the Sanitizer
 * API), so DOMPurify (about 11 KB gzipped) loads only where it is missing (sanitize.ts).
 *
 * The same allow-list as the DOMPurify path gives for what the server sends: the server's tags
 * (src-contract/configured-html.ts), `title`, and `href` on links when the address is allowed
 * (sanitize-rules.ts); inert links lose `href`. The walk after setHTML enforces it again, so a
 * browser whose setHTML ignores our configuration still keeps nothing else.
 */

// Minimal typings: TypeScript's DOM library does not describe the Sanitizer API yet.
interface SanitizerElement {
  name: string;
  attributes?: string[];
}
interface SanitizerConfig {
  elements: (string | SanitizerElement)[];
  attributes: string[];
  comments: boolean;
  dataAttributes: boolean;
}
type SetHtml = (this: Element, html: string, options: { sanitizer: SanitizerConfig }) => void;

const XHTML = 'http://www.w3.org/1999/xhtml';
const TAGS = new Set<string>(CONFIGURED_HTML_TAGS.filter((tag) => !FORBIDDEN_TAGS.includes(tag)));
const CONFIG: SanitizerConfig = {
  elements: [...TAGS].map((name) => (name === 'a' ? { name, attributes: ['href'] } : name)),
  attributes: ['title'],
  comments: false,
  dataAttributes: false,
};

function nativeSetHtml(): SetHtml | null {
  if (typeof Element === 'undefined') return null;
  const method = (Element.prototype as unknown as { setHTML?: unknown }).setHTML;
  return typeof method === 'function' ? (method as SetHtml) : null;
}

/** A document without a browsing context: nothing parsed into it loads or runs. */
let inertDocument: Document | null = null;

function keepsAttribute(element: Element, name: string, value: string, inertLinks: boolean): boolean {
  if (name === 'title') return true;
  return name === 'href' && element.localName === 'a' && !inertLinks && (value === '' || isAllowedUri(value));
}

/** Returns HTML safe to put into the page with innerHTML; with inertLinks, links are not followable. */
function sanitizeHtmlNative(setHtml: SetHtml, html: string, { inertLinks = false }: { inertLinks?: boolean } = {}): string {
  inertDocument ??= document.implementation.createHTMLDocument('');
  const holder = inertDocument.createElement('div');
  setHtml.call(holder, html, { sanitizer: CONFIG });
  const walker = inertDocument.createTreeWalker(holder, NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_PROCESSING_INSTRUCTION);
  const stray: Node[] = [];
  while (walker.nextNode()) stray.push(walker.currentNode);
  for (const node of stray) node.parentNode?.removeChild(node);
  for (const element of [...holder.querySelectorAll('*')]) {
    if (element.namespaceURI !== XHTML || !TAGS.has(element.localName)) {
      element.remove();
      continue;
    }
    for (const { name, value } of [...element.attributes]) {
      if (!keepsAttribute(element, name, value, inertLinks)) element.removeAttribute(name);
    }
  }
  return holder.innerHTML;
}

/** The native sanitiser, or null where the browser has no Element.setHTML (then DOMPurify is loaded). */
export function nativeSanitizer(): ((html: string, options?: { inertLinks?: boolean }) => string) | null {
  const setHtml = nativeSetHtml();
  return setHtml ? (html, options) => sanitizeHtmlNative(setHtml, html, options) : null;
}
