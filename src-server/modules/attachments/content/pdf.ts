import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';

/**
 * Names that make a PDF active: scripts, launching programs, embedded files, rich media, actions
 * run on events, XFA forms, and encryption (which hides all of the others from this check).
 */
const ACTIVE_NAMES = new Map<string, 'pdf_script' | 'pdf_embedded_file' | 'pdf_encrypted'>([
  ['JavaScript', 'pdf_script'],
  ['JS', 'pdf_script'],
  ['Launch', 'pdf_script'],
  ['AA', 'pdf_script'],
  ['XFA', 'pdf_script'],
  ['RichMedia', 'pdf_embedded_file'],
  ['EmbeddedFile', 'pdf_embedded_file'],
  ['EmbeddedFiles', 'pdf_embedded_file'],
  ['Encrypt', 'pdf_encrypted'],
]);

/** A PDF name: "/" and regular characters; "#xx" escapes a byte (so /J#61vaScript is /JavaScript). */
const NAME = /\/([^\s/<>[\]()%{}]+)/g;
/** The start of a stream's bytes (not "endstream"). */
const STREAM_START = /(?<!end)stream\r?\n/g;
/** An object stream expands to at most this much when it is checked. */
const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

function decodeName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function activeNameIn(text: string): ReturnType<typeof ACTIVE_NAMES.get> {
  for (const match of text.matchAll(NAME)) {
    const found = ACTIVE_NAMES.get(decodeName(match[1] ?? ''));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Why a PDF is refused, or null when it is passive (docs/rules/attachments.md#content). The
 * file is at most the upload limit, so it is read whole; object streams (compressed
 * dictionaries) are inflated and checked as well.
 */
export async function activePdfContent(path: string): Promise<'pdf_script' | 'pdf_embedded_file' | 'pdf_encrypted' | null> {
  const bytes = await readFile(path);
  const text = bytes.toString('latin1');
  const direct = activeNameIn(text);
  if (direct !== undefined) return direct;
  for (const match of text.matchAll(STREAM_START)) {
    // The stream's dictionary is what follows the "obj" keyword before it.
    const at = match.index ?? 0;
    const dictionary = decodeName(text.slice(Math.max(text.lastIndexOf('obj', at), at - 4096, 0), at)).replace(/\s+/g, '');
    if (!dictionary.includes('/Type/ObjStm') || !dictionary.includes('/FlateDecode')) continue;
    const start = at + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    let inflated: Buffer;
    try {
      inflated = inflateSync(bytes.subarray(start, end), { maxOutputLength: MAX_INFLATED_BYTES });
    } catch {
      return 'pdf_script'; // An object stream that cannot be read cannot be shown to be passive.
    }
    const hidden = activeNameIn(inflated.toString('latin1'));
    if (hidden !== undefined) return hidden;
  }
  return null;
}
