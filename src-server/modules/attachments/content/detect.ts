import type { UploadContentType } from '@contract/api/attachments';
import { plainRanges } from './image-ranges';

/**
 * What a file is, by its bytes only (docs/rules/attachments.md#content): never by its name or the
 * type the browser declared. Answers null for anything that is not a PDF, JPEG, PNG or HEIC/HEIF.
 */
export function detectContentType(head: Buffer, tail: Buffer): UploadContentType | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') {
    return tail.toString('latin1').includes('%%EOF') ? 'application/pdf' : null;
  }
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (isHeif(head)) return 'image/heic';
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_END = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
/** HEVC-coded HEIF brands (iPhone photos); AVIF ('avif') is not among them. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

function isHeif(head: Buffer): boolean {
  if (head.length < 16 || head.subarray(4, 8).toString('latin1') !== 'ftyp') return false;
  const boxSize = head.readUInt32BE(0);
  const major = head.subarray(8, 12).toString('latin1');
  if (major === 'avif' || major === 'avis') return false;
  if (HEIF_BRANDS.has(major)) return true;
  for (let offset = 16; offset + 4 <= Math.min(boxSize, head.length); offset += 4) {
    if (HEIF_BRANDS.has(head.subarray(offset, offset + 4).toString('latin1'))) return true;
  }
  return false;
}

/** Markup that makes a file dangerous when a browser sniffs it (HTML, SVG, PHP hidden at the start). */
const MARKUP = /<(?:script|html|svg|iframe|object|embed|body|head|meta|!doctype|\?php|\?xml)[\s>/]/i;
/** Markup that makes a file HTML wherever it stands: a browser reading it as HTML runs it anywhere. */
const HTML_ANYWHERE = /<(?:script|html|svg|iframe|object|embed|body|head|meta|!doctype|\?php)[\s>/]/i;
/** A ZIP's local file header: an archive inside a file (read from the start by streaming unzippers). */
const ZIP_ENTRY = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A ZIP's end-of-central-directory record, which ZIP readers look for in the last 65,557 bytes. */
const ZIP_END = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const ZIP_END_REACH = 22 + 65_535;

/** HTML in bytes[from, to). */
function htmlIn(bytes: Buffer, from: number, to: number): boolean {
  // Chunks overlap by more than the longest marker, so none is cut in two.
  for (let at = from; at < to; at += 1024 * 1024) {
    if (HTML_ANYWHERE.test(bytes.toString('latin1', at, Math.min(to, at + 1024 * 1024 + 16)))) return true;
  }
  return false;
}

/** HTML or a ZIP entry in bytes[from, to). */
export function polyglotIn(bytes: Buffer, from: number, to: number): boolean {
  if (htmlIn(bytes, from, to)) return true;
  // Searched within the range only: a file of many streams is not searched to its end for each gap.
  return bytes.subarray(from, to).includes(ZIP_ENTRY);
}

/** A ZIP's end record where a ZIP reader would find it, compressed bytes included. */
export function zipEndNearEnd(bytes: Buffer): boolean {
  return bytes.includes(ZIP_END, Math.max(0, bytes.length - ZIP_END_REACH));
}

/**
 * A polyglot is a file that is also another format: markup in its first kilobyte, HTML anywhere
 * but in compressed pixels, a ZIP's end record where a ZIP reader finds it, or (for PNG, whose end
 * is exact) anything after the IEND chunk. `bytes` is the whole file; a PDF's body is checked by
 * checkPdf, which knows its streams (a ZIP entry signature turns up by chance in compressed bytes,
 * so it is looked for only outside them, and not in images, which are decoded and encoded again).
 */
export function isPolyglot(contentType: UploadContentType, bytes: Buffer): boolean {
  if (MARKUP.test(bytes.toString('latin1', 0, 1024))) return true;
  if (contentType === 'application/pdf') return false;
  if (zipEndNearEnd(bytes)) return true;
  if (plainRanges(contentType, bytes).some(([from, to]) => htmlIn(bytes, from, to))) return true;
  if (contentType === 'image/png' && !bytes.subarray(-PNG_END.length).equals(PNG_END)) return true;
  return false;
}

/**
 * The pixel size an image header claims, read before anything decodes it (a 30000 x 30000 PNG is
 * a few bytes and 3.6 GB once decoded). Null when the header does not say.
 */
export function claimedDimensions(contentType: UploadContentType, head: Buffer): { width: number; height: number } | null {
  if (contentType === 'image/png') {
    if (head.length < 24 || head.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (contentType === 'image/jpeg') return jpegDimensions(head);
  if (contentType === 'image/heic') {
    // The 'ispe' property: version and flags, then width and height.
    const at = head.indexOf('ispe', 0, 'latin1');
    if (at < 0 || at + 16 > head.length) return null;
    return { width: head.readUInt32BE(at + 8), height: head.readUInt32BE(at + 12) };
  }
  return null;
}

/** Walks JPEG segments to the start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC). */
function jpegDimensions(head: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < head.length) {
    if (head[offset] !== 0xff) return null;
    const marker = head[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = head.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: head.readUInt16BE(offset + 5), width: head.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}
