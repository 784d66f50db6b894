import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { jpeg, MINIMAL_PDF } from './attachments-kit';

/**
 * PDFs for the content checks (docs/rules/attachments.md#content), built byte by byte the way
 * writers and attackers build them: real pdfkit documents, and PDF 1.5 files whose catalogue and
 * actions sit in a compressed object stream found through a cross-reference stream.
 */

/** MINIMAL_PDF with `extra` written into its catalogue. */
export function pdfWith(catalogueExtra: string): Buffer {
  return Buffer.from(MINIMAL_PDF.toString().replace('/Type/Catalog', `/Type/Catalog${catalogueExtra}`));
}

/** MINIMAL_PDF with `bytes` before its trailer (a comment, an object, anything). */
export function pdfWithBefore(bytes: Buffer | string): Buffer {
  return Buffer.concat([
    MINIMAL_PDF.subarray(0, MINIMAL_PDF.indexOf('trailer')),
    Buffer.from(bytes),
    MINIMAL_PDF.subarray(MINIMAL_PDF.indexOf('trailer')),
  ]);
}

/** PNG "Up" predictor rows (type 2) of `columns` bytes, as /DecodeParms<</Predictor 12/Columns n>> expects. */
export function pngUpRows(data: Buffer, columns: number): Buffer {
  const rows: Buffer[] = [];
  let previous = Buffer.alloc(columns);
  for (let at = 0; at < data.length; at += columns) {
    const row = Buffer.alloc(columns);
    data.copy(row, 0, at, Math.min(at + columns, data.length));
    rows.push(Buffer.from([2]), Buffer.from(row.map((byte, index) => (byte - previous[index]!) & 0xff)));
    previous = row;
  }
  return Buffer.concat(rows);
}

export interface ObjectStreamOptions {
  /** The object the catalogue opens with (object 4, inside the object stream). */
  action: string;
  /** Written into the object stream's dictionary after /Type (a comment, padding). */
  dictionaryExtra?: string;
  /** Rows of this many bytes under the PNG Up predictor (Flate with /Predictor 12). */
  predictorColumns?: number;
}

/**
 * A PDF 1.5 file: pages as plain objects; the catalogue (with /OpenAction 4 0 R) and object 4 in
 * a Flate object stream; a cross-reference stream (itself under the PNG predictor, as Acrobat and
 * Word write it) that points readers at both.
 */
export function objectStreamPdf(options: ObjectStreamOptions): Buffer {
  const inner = ['<</Type/Catalog/Pages 2 0 R/OpenAction 4 0 R>>', options.action];
  const offsets: number[] = [];
  let body = '';
  for (const object of inner) {
    offsets.push(body.length);
    body += `${object}\n`;
  }
  const header = `1 ${offsets[0]} 4 ${offsets[1]} `;
  const plain = Buffer.from(header + body);
  const columns = options.predictorColumns;
  const packed = deflateSync(columns === undefined ? plain : pngUpRows(plain, columns));
  const parms = columns === undefined ? '' : `/DecodeParms<</Predictor 12/Columns ${columns}>>`;
  const dictionary = `<</Type${options.dictionaryExtra ?? ''}/ObjStm/N 2/First ${header.length}/Filter/FlateDecode${parms}/Length ${packed.length}>>`;

  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const at: Record<number, number> = {};
  const add = (number: number, bytes: Buffer): void => {
    at[number] = Buffer.concat(parts).length;
    parts.push(bytes);
  };
  add(2, Buffer.from('2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n'));
  add(3, Buffer.from('3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n'));
  add(5, Buffer.concat([Buffer.from(`5 0 obj${dictionary}stream\n`), packed, Buffer.from('\nendstream\nendobj\n')]));
  const xrefAt = Buffer.concat(parts).length;
  // Entries of 1 + 4 + 2 bytes: type, offset or object stream, generation or index.
  const entry = (type: number, field: number, index: number): Buffer => {
    const row = Buffer.alloc(7);
    row.writeUInt8(type, 0);
    row.writeUInt32BE(field, 1);
    row.writeUInt16BE(index, 5);
    return row;
  };
  const table = Buffer.concat([
    entry(0, 0, 65535),
    entry(2, 5, 0),
    entry(1, at[2]!, 0),
    entry(1, at[3]!, 0),
    entry(2, 5, 1),
    entry(1, at[5]!, 0),
    entry(1, xrefAt, 0),
  ]);
  const xref = deflateSync(pngUpRows(table, 7));
  parts.push(
    Buffer.from(
      `6 0 obj<</Type/XRef/Size 7/W[1 4 2]/Root 1 0 R/Filter/FlateDecode/DecodeParms<</Predictor 12/Columns 7>>/Length ${xref.length}>>stream\n`,
    ),
    xref,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

/** A JPEG of random pixels: it barely compresses, like a scan's photo of a page. */
export async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** A real PDF by pdfkit: a heading, text, one scanned-looking image per page, optionally a link. */
export async function pdfkitPdf(options: { images?: Buffer[]; link?: string; internalLink?: boolean } = {}): Promise<Buffer> {
  const images = options.images ?? [await jpeg(800, 1100)];
  const document = new PDFDocument({ autoFirstPage: false, info: { Title: 'Referral', CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => document.on('end', () => resolve()));
  images.forEach((image, index) => {
    document.addPage({ size: 'A4' });
    document.fontSize(16).text(`Referral page ${index + 1}`, { underline: false });
    document.fontSize(10).text('Please perform an MRI of the left knee. Clinical notes: pain on flexion <3 weeks>.');
    if (options.link !== undefined) document.text('Our clinic', { link: options.link });
    if (options.internalLink === true) document.goTo(50, 50, 100, 20, 'top');
    if (options.internalLink === true) document.addNamedDestination('top');
    document.image(image, 50, 150, { width: 495 });
  });
  document.end();
  await done;
  return Buffer.concat(chunks);
}
