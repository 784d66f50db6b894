import { constants, inflateSync } from 'node:zlib';
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNull, PDFNumber, PDFRawStream, decodePDFRawStream } from '@cantoo/pdf-lib';

/** A stream is expanded to at most this much when it is checked (a zip bomb stops here). */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

/** A stream whose bytes cannot be recovered within the limit: it cannot be shown to be passive. */
export class UndecodableStream extends Error {}

/** Abbreviated filter names (inline images, and readers accept them in streams too). */
const FULL_NAMES: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  RL: 'RunLengthDecode',
};
/** Filters undone by pdf-lib's decoders, which are read only up to the limit. */
const LIBRARY_FILTERS = new Set(['LZWDecode', 'ASCIIHexDecode', 'ASCII85Decode', 'RunLengthDecode']);

function filtersOf(dict: PDFDict): { filter: string; parms: PDFDict | undefined }[] {
  const filter = dict.get(PDFName.of('Filter'));
  const parms = dict.get(PDFName.of('DecodeParms')) ?? dict.get(PDFName.of('DP'));
  const names = filter === undefined ? [] : filter instanceof PDFArray ? filter.asArray() : [filter];
  const parmList = parms instanceof PDFArray ? parms.asArray() : [parms];
  return names.map((name, index) => {
    // An indirect filter or parameter is not followed here: such a stream is refused.
    if (!(name instanceof PDFName)) throw new UndecodableStream('filter is not a direct name');
    const parm = parmList[index];
    if (parm !== undefined && parm !== PDFNull && !(parm instanceof PDFDict)) throw new UndecodableStream('indirect parameters');
    const raw = name.decodeText();
    return { filter: FULL_NAMES[raw] ?? raw, parms: parm instanceof PDFDict ? parm : undefined };
  });
}

function numberIn(parms: PDFDict | undefined, key: string, fallback: number): number {
  const value = parms?.get(PDFName.of(key));
  if (value === undefined) return fallback;
  if (!(value instanceof PDFNumber)) throw new UndecodableStream(`${key} is not a number`);
  return value.asNumber();
}

/**
 * Undoes a PNG (10-15) or TIFF (2) predictor (ISO 32000-1, 7.4.4.4), as readers do after Flate or
 * LZW. The output is never longer than the input.
 */
export function undoPredictor(data: Uint8Array, parms: PDFDict | undefined): Uint8Array {
  const predictor = numberIn(parms, 'Predictor', 1);
  if (predictor <= 1) return data;
  const colors = numberIn(parms, 'Colors', 1);
  const bits = numberIn(parms, 'BitsPerComponent', 8);
  const columns = numberIn(parms, 'Columns', 1);
  const rowBits = colors * bits * columns;
  if (!(rowBits > 0 && rowBits <= 8 * 1024 * 1024 && Number.isInteger(rowBits))) throw new UndecodableStream('bad predictor row');
  const rowLength = Math.ceil(rowBits / 8);
  const pixelBytes = Math.max(1, Math.ceil((colors * bits) / 8));
  if (predictor === 2) {
    if (bits !== 8) throw new UndecodableStream('TIFF predictor other than 8 bits');
    const out = Uint8Array.from(data);
    for (let row = 0; row < out.length; row += rowLength) {
      for (let at = row + pixelBytes; at < Math.min(row + rowLength, out.length); at += 1)
        out[at] = (out[at]! + out[at - pixelBytes]!) & 0xff;
    }
    return out;
  }
  const rows = Math.ceil(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  let written = 0;
  for (let from = 0; from < data.length; from += rowLength + 1) {
    const type = data[from]!;
    const row = data.subarray(from + 1, from + 1 + rowLength);
    for (let index = 0; index < row.length; index += 1) {
      const at = written + index;
      const left = index >= pixelBytes ? out[at - pixelBytes]! : 0;
      const up = written >= rowLength ? out[at - rowLength]! : 0;
      const upLeft = index >= pixelBytes && written >= rowLength ? out[at - rowLength - pixelBytes]! : 0;
      out[at] = (row[index]! + unfilter(type, left, up, upLeft)) & 0xff;
    }
    written += row.length;
  }
  return out.subarray(0, written);
}

function unfilter(type: number, left: number, up: number, upLeft: number): number {
  if (type === 0) return 0;
  if (type === 1) return left;
  if (type === 2) return up;
  if (type === 3) return (left + up) >> 1;
  if (type === 4) {
    const estimate = left + up - upLeft;
    const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
    return toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
  }
  throw new UndecodableStream('unknown PNG row filter');
}

function undoFilter(data: Uint8Array, filter: string, context: PDFContext, limit: number): Uint8Array {
  if (filter === 'FlateDecode') {
    try {
      // A truncated stream still gives what it holds (readers show it too).
      return inflateSync(data, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      throw new UndecodableStream('cannot inflate');
    }
  }
  if (!LIBRARY_FILTERS.has(filter)) throw new UndecodableStream(`filter ${filter}`);
  const single = PDFRawStream.of(context.obj({ Filter: filter }), data);
  let decoded: Uint8Array;
  try {
    const got = decodePDFRawStream(single).getBytes(limit + 1);
    decoded = got instanceof Uint8Array ? got : new Uint8Array(got);
  } catch {
    throw new UndecodableStream(`cannot undo ${filter}`);
  }
  if (decoded.length > limit) throw new UndecodableStream('too large');
  return decoded;
}

/** A stream's bytes with its whole filter chain undone, predictors too; at most MAX_INFLATED_BYTES. */
export function decodeStream(stream: PDFRawStream, context: PDFContext, limit = MAX_INFLATED_BYTES): Uint8Array {
  let data: Uint8Array = stream.contents;
  for (const { filter, parms } of filtersOf(stream.dict)) {
    data = undoFilter(data, filter, context, limit);
    if (filter === 'FlateDecode' || filter === 'LZWDecode') data = undoPredictor(data, parms);
  }
  return data;
}
