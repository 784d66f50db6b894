/**
 * The browser's rules for configured HTML, shared by both sanitisers: the native one
 * (sanitize-native.ts, Element.setHTML) and DOMPurify (sanitize.ts, where setHTML is missing).
 */

/** Tags never kept, whatever the rest of the allow-list says. */
export const FORBIDDEN_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed'];

/** The addresses a link may have: web, mail, phone, a path on this site or an anchor. */
export const ALLOWED_URI = /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i;

/** Characters ignored when an address is checked (DOMPurify's ATTR_WHITESPACE): `java\tscript:` is `javascript:`. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it strips
export const URI_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;

export function isAllowedUri(value: string): boolean {
  return ALLOWED_URI.test(value.replace(URI_WHITESPACE, ''));
}
