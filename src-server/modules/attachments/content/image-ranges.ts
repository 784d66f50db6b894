import type { UploadContentType } from '@contract/api/attachments';

/** A range of bytes [from, to). */
export type Range = readonly [number, number];

/**
 * The parts of an image that are not compressed pixels (docs/rules/attachments.md#content): its
 * headers, metadata and comments, and whatever follows its end. Markup is looked for there;
 * compressed pixels hold short patterns such as "<svg " by chance, and are left out. A structure
 * that cannot be followed leaves the rest of the file as one plain range.
 */
export function plainRanges(contentType: UploadContentType, bytes: Buffer): Range[] {
  if (contentType === 'image/jpeg') return jpegRanges(bytes);
  if (contentType === 'image/png') return pngRanges(bytes);
  if (contentType === 'image/heic') return heifRanges(bytes);
  return [[0, bytes.length]];
}

const isRestart = (marker: number): boolean => marker >= 0xd0 && marker <= 0xd7;

/** JPEG segments before and between scans, and what follows the end marker; scan data is left out. */
function jpegRanges(bytes: Buffer): Range[] {
  const ranges: Range[] = [];
  let offset = 2;
  while (offset + 1 < bytes.length) {
    const marker = bytes[offset + 1]!;
    if (bytes[offset] !== 0xff) return [...ranges, [offset, bytes.length]];
    if (marker === 0xff) {
      offset += 1;
    } else if (marker === 0xd9) {
      return [...ranges, [offset + 2, bytes.length]]; // after the end of the image
    } else if (isRestart(marker) || marker === 0x01) {
      offset += 2;
    } else {
      if (offset + 4 > bytes.length) return [...ranges, [offset, bytes.length]];
      const end = offset + 2 + bytes.readUInt16BE(offset + 2);
      ranges.push([offset + 4, Math.min(end, bytes.length)]);
      offset = end;
      // Scan data runs to the next marker: 0xFF followed by neither 0x00 (stuffing) nor a restart.
      if (marker === 0xda) offset = scanEnd(bytes, offset);
    }
  }
  return ranges;
}

function scanEnd(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(0xff, from); at !== -1; at = bytes.indexOf(0xff, at + 1)) {
    const next = bytes[at + 1];
    if (next === undefined) return bytes.length;
    if (next !== 0x00 && !isRestart(next) && next !== 0xff) return at;
  }
  return bytes.length;
}

/** PNG chunks other than IDAT (the pixels). */
function pngRanges(bytes: Buffer): Range[] {
  const ranges: Range[] = [];
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const end = offset + 12 + bytes.readUInt32BE(offset);
    if (end > bytes.length) break;
    if (bytes.toString('latin1', offset + 4, offset + 8) !== 'IDAT') ranges.push([offset + 4, end]);
    offset = end;
  }
  return offset < bytes.length ? [...ranges, [offset, bytes.length]] : ranges;
}

/** HEIF boxes other than mdat (the coded pictures). */
function heifRanges(bytes: Buffer): Range[] {
  const ranges: Range[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const size = bytes.readUInt32BE(offset);
    const large = size === 1 && offset + 16 <= bytes.length ? Number(bytes.readBigUInt64BE(offset + 8)) : size;
    const end = size === 0 ? bytes.length : offset + large;
    if (end <= offset || end > bytes.length) break;
    if (bytes.toString('latin1', offset + 4, offset + 8) !== 'mdat') ranges.push([offset, end]);
    offset = end;
  }
  return offset < bytes.length ? [...ranges, [offset, bytes.length]] : ranges;
}
