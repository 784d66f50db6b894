import type sanitize from 'sanitize-html';
import { CONFIGURED_HTML_TAGS } from '@contract/configured-html';
import { lazyRequire } from './lazy-require';

/** sanitize-html (with postcss and htmlparser2) loads with the first configured HTML served, not at start. */
const sanitizeHtml = lazyRequire<typeof sanitize>('sanitize-html');

/**
 * Every HTML string from configuration (about, contact, custom footer, banner, terms) leaves the
 * server through this allow-list: plain formatting tags and https/mailto/tel links, nothing that
 * runs or styles. The web sanitises again before rendering (defence in depth; src-web/components/safe-html.tsx).
 */
const OPTIONS: sanitize.IOptions = {
  allowedTags: [...CONFIGURED_HTML_TAGS],
  allowedAttributes: {
    // rel is only ever the one the transform below writes.
    a: ['href', 'title', 'target', 'rel'],
    abbr: ['title'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['https', 'mailto', 'tel'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link that opens a new tab must not hand the portal's window to the other site.
    a: (tagName, attribs) => {
      const { target, rel: _ignored, ...rest } = attribs;
      return {
        tagName,
        attribs: target === '_blank' ? { ...rest, target: '_blank', rel: 'noopener noreferrer' } : rest,
      };
    },
  },
};

export function sanitizeConfiguredHtml(html: string): string {
  return sanitizeHtml()(html, OPTIONS);
}

export function sanitizeOptionalHtml(html: string | null): string | null {
  return html === null ? null : sanitizeConfiguredHtml(html);
}
