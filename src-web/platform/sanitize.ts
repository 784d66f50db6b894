import DOMPurify from 'dompurify';
import { ALLOWED_URI, FORBIDDEN_TAGS } from './sanitize-rules';

/**
 * Defence in depth: the server sanitises every configured HTML string with sanitize-html
 * before it leaves it; the browser sanitises again before rendering, so a mistake on one
 * side is not an XSS. Inline styles are dropped as well: the CSP would block them anyway.
 *
 * This is the fallback for browsers without Element.setHTML (sanitize-native.ts): safe-html.tsx
 * loads it only there. Note ALLOWED_URI_REGEXP applies to every attribute DOMPurify does not
 * deem URI-safe, so values such as colspan="2" or rel="noopener" are dropped too.
 */
const OPTIONS = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: FORBIDDEN_TAGS,
  FORBID_ATTR: ['style'],
  ALLOWED_URI_REGEXP: ALLOWED_URI,
};

let hooked = false;

function addLinkHook(): void {
  if (hooked) return;
  hooked = true;
  // A link that opens a new tab must not hand the opener to the other site.
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node instanceof Element && node.tagName === 'A' && node.getAttribute('target') === '_blank') {
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/** In the kiosk, links lose their address and target: an <a> without href is plain text no tap follows. */
const INERT_LINK_OPTIONS = { ...OPTIONS, FORBID_ATTR: [...OPTIONS.FORBID_ATTR, 'href', 'target', 'tabindex'] };

/** Returns HTML safe to put into the page with innerHTML; with inertLinks, links are not followable. */
export function sanitizeHtml(html: string, { inertLinks = false }: { inertLinks?: boolean } = {}): string {
  addLinkHook();
  return DOMPurify.sanitize(html, inertLinks ? INERT_LINK_OPTIONS : OPTIONS);
}
