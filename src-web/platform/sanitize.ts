import DOMPurify from 'dompurify';

/**
 * Defence in depth: the server sanitises every configured HTML string with sanitize-html
 * before it leaves it; the browser sanitises again before rendering, so a mistake on one
 * side is not an XSS. Inline styles are dropped as well: the CSP would block them anyway.
 */
const OPTIONS = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i,
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
