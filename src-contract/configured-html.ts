/**
 * The tags configured HTML (about, contact, custom footer, banner, terms) may use: plain
 * formatting, lists, tables and links, nothing that runs, loads or styles. The server's
 * sanitize-html allow-list (src-server/platform/html-sanitizer.ts) and the browser's native
 * sanitiser (src-web/platform/sanitize-native.ts) both read it.
 */
export const CONFIGURED_HTML_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'address',
  'abbr',
  'span',
  'div',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
] as const;
