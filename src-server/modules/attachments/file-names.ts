import type { StoredContentType } from '@contract/api/attachments';

/**
 * Names of uploaded files (docs/rules/attachments.md#file-names). The stored file has a
 * server-made key; the name the device sent is kept for display only, cleaned so it can never
 * be a path, break a header or hide its extension behind a right-to-left mark.
 */

const EXTENSION: Record<StoredContentType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

const DEFAULT_STEM = 'document';

/**
 * The last path part of what the device sent, without control characters, bidirectional
 * overrides and isolates, quotes, backslashes or a leading dot, at most 120 characters, ending in
 * the extension of the type the bytes are (a "scan.html" that is a PDF becomes "scan.pdf").
 */
export function displayFileName(sent: string, contentType: StoredContentType): string {
  const last = sent.split(/[\\/]/).pop() ?? '';
  const cleaned = last
    .normalize('NFC')
    // C0/C1 controls, bidi embeddings/overrides/isolates and marks, zero-width characters, BOM.
    // eslint-disable-next-line no-control-regex -- removing control characters is the point.
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .replace(/["'`<>|:*?;%]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s_-]+/, '')
    .trim();
  const stem = cleaned.replace(/\.[\p{L}\p{N}]{1,10}$/u, '').trim();
  return `${(stem === '' ? DEFAULT_STEM : stem).slice(0, 110).trim() || DEFAULT_STEM}.${EXTENSION[contentType]}`;
}

/** RFC 5987 value characters (attr-char); everything else is percent-encoded as UTF-8. */
function encodeExtValue(value: string): string {
  return [...new TextEncoder().encode(value)]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9!#$&+.^_`|~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * A Content-Disposition value (RFC 6266): an ASCII `filename` for old clients (anything else
 * becomes '_') and `filename*` in UTF-8 for the rest. The name is a displayFileName, so it
 * has no quote, backslash or line break to escape.
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(fileName)}`;
}
