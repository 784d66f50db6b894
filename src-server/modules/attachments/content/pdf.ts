import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ACTIVE_KEYS, ACTIVE_VALUES, activeObject, CHECKED_NAMES, type PdfRefusal } from './pdf-actions';
import { readPdfObjects, UnreadablePdf } from './pdf-objects';
import { polyglotIn, zipEndNearEnd } from './detect';
import { END_STREAM, OBJ, SEPARATOR, STREAM } from './pdf-bytes';

/**
 * The token scan, a second line behind the parser: every active key or value name written in the
 * file outside stream bodies, in strings and comments too.
 */
const ACTIVE_NAMES = new Map<string, PdfRefusal>([...ACTIVE_VALUES, ...ACTIVE_KEYS]);
const SLASH = 0x2f;
const PERCENT = 0x25;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const END = Buffer.from('end');
const END_OBJ = Buffer.from('endobj');
/** The longest active name with every character written as #xx. */
const LONGEST_NAME = 3 * Math.max(...[...ACTIVE_NAMES.keys()].map((name) => name.length));

/** "#xx" escapes a byte in a name (so /J#61vaScript is /JavaScript). */
function decodeName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The first active name in bytes[from, to). Names are looked for everywhere outside stream bodies,
 * in strings and comments too (a reader that parses a broken file differently must not find
 * one we missed).
 */
function activeNameIn(bytes: Buffer, from: number, to: number, tolerated: ReadonlySet<PdfRefusal>): PdfRefusal | undefined {
  let at = bytes.indexOf(SLASH, from);
  while (at !== -1 && at < to) {
    let end = at + 1;
    while (end < to && SEPARATOR[bytes[end]!] === 0) end += 1;
    if (end - at - 1 <= LONGEST_NAME) {
      const found = ACTIVE_NAMES.get(decodeName(bytes.toString('latin1', at + 1, end)));
      if (found !== undefined && !tolerated.has(found)) return found;
    }
    at = bytes.indexOf(SLASH, end);
  }
  return undefined;
}

function isKeywordAt(bytes: Buffer, at: number, keyword: Buffer): boolean {
  return (
    (at === 0 || SEPARATOR[bytes[at - 1]!] === 1) &&
    bytes.subarray(at, at + keyword.length).equals(keyword) &&
    (at + keyword.length === bytes.length || SEPARATOR[bytes[at + keyword.length]!] === 1)
  );
}

/** Where a literal string that opens at `at` ends: parentheses nest, a backslash escapes the next byte. */
function literalStringEnd(bytes: Buffer, at: number): number {
  let depth = 0;
  for (let index = at; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (byte === BACKSLASH) index += 1;
    else if (byte === OPEN_PAREN) depth += 1;
    else if (byte === CLOSE_PAREN && --depth === 0) return index + 1;
  }
  return bytes.length;
}

/** The answer for one search: from `from` on, the first "endstream" or "endobj" is at `at` (Infinity: none). */
interface EndSearch {
  from: number;
  at: number;
  end: number;
}

/**
 * Where the bytes from `start` reach "endstream"; -1 when there is none or "endobj" comes first
 * (then they are not one stream's). The last search is kept: the scan only moves forward, so a
 * file of many "stream" keywords without an end is searched once, not once for each.
 */
function streamEnd(bytes: Buffer, start: number, last: EndSearch): number {
  if (start >= last.from && start <= last.at) return last.end;
  last.from = start;
  last.at = Infinity;
  last.end = -1;
  // One pass over the bytes for "end" (rare in compressed data), instead of one per keyword.
  for (let at = bytes.indexOf(END, start); at !== -1; at = bytes.indexOf(END, at + 1)) {
    if (bytes.subarray(at, at + END_STREAM.length).equals(END_STREAM)) {
      Object.assign(last, { at, end: at });
      break;
    }
    if (bytes.subarray(at, at + END_OBJ.length).equals(END_OBJ)) {
      last.at = at;
      break;
    }
  }
  return last.end;
}

interface StreamBody {
  /** From the "obj" keyword before it to the "stream" keyword. */
  dictionary: string;
  start: number;
  end: number;
}

/**
 * The streams' bytes, found by reading the file as tokens: "stream" counts only as a keyword
 * outside strings and comments, followed by an end of line, and its bytes run to the first
 * "endstream". Bytes that hold "endobj" are not one stream's, and are read as objects.
 */
function streamBodies(bytes: Buffer): StreamBody[] {
  const bodies: StreamBody[] = [];
  const lastSearch: EndSearch = { from: -1, at: -1, end: -1 };
  let objectStart = 0;
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte === PERCENT) {
      while (index < bytes.length && bytes[index] !== 0x0a && bytes[index] !== 0x0d) index += 1;
    } else if (byte === OPEN_PAREN) {
      index = literalStringEnd(bytes, index);
    } else if (byte === LESS_THAN && bytes[index + 1] !== LESS_THAN) {
      const hexEnd = bytes.indexOf(GREATER_THAN, index);
      index = hexEnd === -1 ? bytes.length : hexEnd + 1;
    } else if (byte === LESS_THAN || byte === GREATER_THAN) {
      index += 2;
    } else if (byte === 0x6f && isKeywordAt(bytes, index, OBJ)) {
      objectStart = index;
      index += OBJ.length;
    } else if (byte === 0x73 && isKeywordAt(bytes, index, STREAM)) {
      const lineBreak = bytes[index + STREAM.length] === 0x0d && bytes[index + STREAM.length + 1] === 0x0a ? 2 : 1;
      const start = index + STREAM.length + lineBreak;
      const end = bytes[start - 1] === 0x0a ? streamEnd(bytes, start, lastSearch) : -1;
      if (end !== -1) {
        const dictionaryStart = Math.max(objectStart, index - 4096);
        bodies.push({ dictionary: decodeName(bytes.toString('latin1', dictionaryStart, index)).replace(/\s+/g, ''), start, end });
        index = end + END_STREAM.length;
      } else {
        index += STREAM.length;
      }
    } else {
      index += 1;
    }
  }
  return bodies;
}

/** A PDF passes the parser and the token scan, or is refused for the first reason found. */
export type PdfCheck = PdfRefusal | 'pdf_unreadable' | 'polyglot';

class Found extends Error {
  constructor(readonly reason: PdfRefusal) {
    super(reason);
  }
}

/**
 * Why a PDF is refused (active: null when it is passive, docs/rules/attachments.md#content), and
 * its SHA-256. The file is at most the upload limit, so it is read once, whole. Every object is
 * read by pdf-lib's parser (object streams expanded, names decoded) and checked for active keys
 * and actions; the token scan checks the bytes outside stream bodies as well, and they and the
 * unfiltered streams must hold no HTML or ZIP.
 */
export async function checkPdf(path: string, options: PdfCheckOptions = {}): Promise<{ active: PdfCheck | null; sha256: string }> {
  const bytes = await readFile(path);
  const tolerated: ReadonlySet<PdfRefusal> = options.allowLinks === true ? LINKS : NOTHING;
  return { active: activeContent(bytes, tolerated), sha256: createHash('sha256').update(bytes).digest('hex') };
}

export interface PdfCheckOptions {
  /**
   * Web links and form targets pass (everything else is still refused): for a report from the
   * provider's own RIS, whose footer may link the provider's website; never for uploads.
   */
  allowLinks?: boolean;
}

const NOTHING: ReadonlySet<PdfRefusal> = new Set();
const LINKS: ReadonlySet<PdfRefusal> = new Set(['pdf_link']);

function activeContent(bytes: Buffer, tolerated: ReadonlySet<PdfRefusal>): PdfCheck | null {
  const streams = streamBodies(bytes);
  let from = 0;
  for (const stream of streams) {
    const found = activeNameIn(bytes, from, stream.start, tolerated) ?? (polyglotIn(bytes, from, stream.start) ? 'polyglot' : undefined);
    if (found !== undefined) return found;
    // Stream bytes with no filter are as plain as the rest: a browser reading the file as HTML finds markup there too.
    if (!stream.dictionary.includes('/Filter') && polyglotIn(bytes, stream.start, stream.end)) return 'polyglot';
    from = stream.end;
  }
  const found = activeNameIn(bytes, from, bytes.length, tolerated) ?? (polyglotIn(bytes, from, bytes.length) ? 'polyglot' : undefined);
  if (found !== undefined) return found;
  if (zipEndNearEnd(bytes)) return 'polyglot';
  return parsedContent(bytes, tolerated);
}

/** The parser's answer: every object read and checked; a PDF it cannot read is refused. */
function parsedContent(bytes: Buffer, tolerated: ReadonlySet<PdfRefusal>): PdfCheck | null {
  try {
    const read = readPdfObjects(bytes, CHECKED_NAMES, {
      object(object) {
        const found = activeObject(object, tolerated);
        if (found !== undefined) throw new Found(found);
      },
      objectStream(expanded) {
        const found = activeNameIn(expanded, 0, expanded.length, tolerated);
        if (found !== undefined) throw new Found(found);
      },
    });
    return read === 0 ? 'pdf_unreadable' : null;
  } catch (error) {
    if (error instanceof Found) return error.reason;
    if (error instanceof UnreadablePdf) return 'pdf_unreadable';
    throw error;
  }
}
