import { crc32, inflateSync } from 'node:zlib';

/**
 * A strict reader of the 8-bit greyscale PNGs the demo PACS writes, for tests: checks the
 * signature, every chunk's CRC and the header, and undoes the row filters.
 */
export interface GreyscalePng {
  width: number;
  height: number;
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function readGreyscalePng(png: Buffer): GreyscalePng {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG signature');
  let at = 8;
  let header: Buffer | null = null;
  const data: Buffer[] = [];
  let ended = false;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    const crc = png.readUInt32BE(at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) >>> 0 !== crc) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') header = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (header === null || !ended || at !== png.length) throw new Error('missing IHDR or IEND, or trailing bytes');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  if (header[8] !== 8 || header[9] !== 0 || header[12] !== 0) throw new Error('not 8-bit greyscale, non-interlaced');
  const raw = inflateSync(Buffer.concat(data));
  if (raw.length !== (width + 1) * height) throw new Error(`image data is ${raw.length} bytes, expected ${(width + 1) * height}`);
  const pixels = new Uint8Array(width * height);
  for (let row = 0; row < height; row += 1) {
    const filter = raw[row * (width + 1)];
    for (let column = 0; column < width; column += 1) {
      const value = raw[row * (width + 1) + 1 + column] ?? 0;
      const left = column === 0 ? 0 : (pixels[row * width + column - 1] ?? 0);
      const up = row === 0 ? 0 : (pixels[(row - 1) * width + column] ?? 0);
      const predicted = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : Number.NaN;
      if (Number.isNaN(predicted)) throw new Error(`unsupported filter ${filter}`);
      pixels[row * width + column] = (value + predicted) & 0xff;
    }
  }
  return { width, height, pixels };
}
