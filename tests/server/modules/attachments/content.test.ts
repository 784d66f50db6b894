import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_CONTENT_TYPES } from '@contract/api/attachments';
import { prepareUpload, type ContentPolicy } from '../../../../src-server/modules/attachments/content';
import { jpeg, MINIMAL_PDF } from './attachments-kit';

// The byte checks of docs/rules/attachments.md#content, file by file, without a server.

const POLICY: ContentPolicy = { allowed: UPLOAD_CONTENT_TYPES, maxPixels: 50_000_000, maxDimension: 4000 };
let work = '';
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'portal-content-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

async function prepare(bytes: Buffer, policy: ContentPolicy = POLICY) {
  const input = join(work, 'input');
  writeFileSync(input, bytes);
  const result = await prepareUpload(input, work, policy);
  if (!result.ok) expect(readdirSync(work)).toEqual(['input']); // a refusal leaves no output
  return result;
}

function pdfWith(catalogueExtra: string): Buffer {
  return Buffer.from(MINIMAL_PDF.toString().replace('/Type/Catalog', `/Type/Catalog${catalogueExtra}`));
}

describe('prepareUpload', () => {
  it('keeps a passive PDF byte for byte', async () => {
    const result = await prepare(MINIMAL_PDF);
    expect(result).toMatchObject({ ok: true, contentType: 'application/pdf', size: MINIMAL_PDF.length, width: null });
  });

  it.each([
    ['/JavaScript written with #xx escapes', pdfWith('/OpenAction<</S/J#61vaScript/JS(x)>>'), 'pdf_script'],
    ['/Launch', pdfWith('/OpenAction<</S/Launch/F(cmd.exe)>>'), 'pdf_script'],
    ['an additional action (/AA)', pdfWith('/AA<</O 4 0 R>>'), 'pdf_script'],
    ['embedded files', pdfWith('/Names<</EmbeddedFiles 5 0 R>>'), 'pdf_embedded_file'],
    ['encryption', Buffer.from(MINIMAL_PDF.toString().replace('trailer<<', 'trailer<</Encrypt 9 0 R')), 'pdf_encrypted'],
  ])('refuses a PDF with %s', async (_name, bytes, reason) => {
    expect(await prepare(bytes)).toMatchObject({ ok: false, reason });
  });

  it('finds /JavaScript hidden in a compressed object stream', async () => {
    const hidden = deflateSync(Buffer.from('4 0 <</S/JavaScript/JS(app.alert(1))>>'));
    const objectStream = Buffer.concat([
      Buffer.from(`4 0 obj<</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length ${hidden.length}>>stream\n`),
      hidden,
      Buffer.from('\nendstream endobj\n'),
    ]);
    const pdf = Buffer.concat([
      MINIMAL_PDF.subarray(0, MINIMAL_PDF.indexOf('trailer')),
      objectStream,
      Buffer.from('trailer<</Root 1 0 R>>\n%%EOF\n'),
    ]);
    expect(await prepare(pdf)).toMatchObject({ ok: false, reason: 'pdf_script' });
  });

  /** MINIMAL_PDF with `objects` (raw bytes) before its trailer. */
  function pdfWithObjects(...objects: Buffer[]): Buffer {
    return Buffer.concat([
      MINIMAL_PDF.subarray(0, MINIMAL_PDF.indexOf('trailer')),
      ...objects,
      Buffer.from('trailer<</Root 1 0 R>>\n%%EOF\n'),
    ]);
  }

  function streamObject(dictionary: string, body: Buffer): Buffer {
    return Buffer.concat([
      Buffer.from(`5 0 obj<<${dictionary}/Length ${body.length}>>\nstream\r\n`),
      body,
      Buffer.from('\r\nendstream\nendobj\n'),
    ]);
  }

  it('keeps a scanned page whose image bytes happen to hold /JS and /AA', async () => {
    // Compressed image data is random bytes; a short name turns up in it by chance and is data, not an action.
    const image = Buffer.concat([randomBytes(4096), Buffer.from('/JS)\0/AA>(/JavaScript '), randomBytes(4096)]);
    const result = await prepare(pdfWithObjects(streamObject('/Type/XObject/Subtype/Image/Filter/DCTDecode', image)));
    expect(result).toMatchObject({ ok: true, contentType: 'application/pdf' });
  });

  it.each([
    ['a name ended by NUL', pdfWith('/OpenAction<</S/JS\0(x)>>')],
    ['an action after a "stream" keyword inside a string', pdfWith('/T(x>>stream\n)/OpenAction<</S/JavaScript/JS(x)>>/X(\nendstream)')],
    [
      'an action in bytes that hold "endobj" (not one stream)',
      pdfWithObjects(Buffer.from('4 0 obj<</Length 1>>stream\nx endobj 6 0 obj<</S/JavaScript/JS(x)>>endstream endobj\n')),
    ],
    ['an uncompressed object stream', pdfWithObjects(streamObject('/Type/ObjStm/N 1/First 4', Buffer.from('4 0 <</S/JavaScript/JS(x)>>')))],
    [
      'an object stream under another filter',
      pdfWithObjects(streamObject('/Type/ObjStm/N 1/First 4/Filter/ASCIIHexDecode', Buffer.from('34203020203c3c2f532f4a53202878293e3e>'))),
    ],
  ])('refuses a PDF with %s', async (_name, bytes) => {
    expect(await prepare(bytes)).toMatchObject({ ok: false, reason: 'pdf_script' });
  });

  it('refuses a PDF with an object stream that cannot be read (what a reader finds there is unknown)', async () => {
    const noNumbers = pdfWithObjects(streamObject('/Type/ObjStm/N 1/First 4/Filter/ASCIIHexDecode', Buffer.from('3c3c3e3e>')));
    expect(await prepare(noNumbers)).toMatchObject({ ok: false, reason: 'pdf_unreadable' });
  });

  it('refuses a PDF without its end marker, and a ZIP glued to a PDF or a photo', async () => {
    expect(await prepare(Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n'))).toMatchObject({ ok: false, reason: 'unknown_type' });
    const zipEnd = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Buffer.alloc(18)]);
    expect(await prepare(Buffer.concat([MINIMAL_PDF, zipEnd]))).toMatchObject({ ok: false, reason: 'polyglot' });
    expect(await prepare(Buffer.concat([await jpeg(), zipEnd]))).toMatchObject({ ok: false, reason: 'polyglot' });
  });

  it('refuses HTML hidden in the first kilobyte of an image', async () => {
    const photo = await jpeg();
    const withComment = Buffer.concat([
      photo.subarray(0, 2),
      Buffer.from([0xff, 0xfe, 0x00, 0x20]),
      Buffer.from('<script>alert(1)</script>xxxx'),
      photo.subarray(2),
    ]);
    expect(await prepare(withComment)).toMatchObject({ ok: false, reason: 'polyglot' });
  });

  it('scales a large photo down to the longest side and turns it upright', async () => {
    const tall = await sharp({ create: { width: 6000, height: 3000, channels: 3, background: '#808080' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const result = await prepare(tall);
    expect(result).toMatchObject({ ok: true, contentType: 'image/jpeg', width: 2000, height: 4000 });
  });

  it('turns an iPhone HEIC photo into a JPEG of its pixels, its EXIF (camera, GPS) gone', async () => {
    // fixtures/iphone-photo.heic: 320 x 240 of rgb(10, 120, 200), HEVC-coded by libheif's heif-enc (x265) from jpegWithGps().
    const heic = readFileSync(new URL('./fixtures/iphone-photo.heic', import.meta.url));
    expect(heic.includes('Secret Phone 15')).toBe(true);
    const result = await prepare(heic);
    expect(result).toMatchObject({ ok: true, contentType: 'image/jpeg', width: 320, height: 240 });
    if (!result.ok) return;
    const stored = readFileSync(result.path);
    expect(stored.includes('Secret Phone 15')).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    const { channels } = await sharp(stored).stats();
    expect(channels.map((channel) => Math.round(channel.mean / 8))).toEqual([1, 15, 25]); // about (10, 120, 200)
    rmSync(result.path);
    expect(await prepare(heic, { ...POLICY, maxPixels: 320 * 240 - 1 })).toMatchObject({ ok: false, reason: 'too_many_pixels' });
  });

  it('refuses a JPEG claiming more pixels than allowed before decoding it', async () => {
    const result = await prepare(await jpeg(400, 300), { ...POLICY, maxPixels: 100_000 });
    expect(result).toMatchObject({ ok: false, reason: 'too_many_pixels' });
  });

  it('refuses a type the provider has not allowed, naming the allowed ones', async () => {
    const result = await prepare(await jpeg(), { ...POLICY, allowed: ['application/pdf'] });
    expect(result).toEqual({ ok: false, reason: 'not_allowed', message: 'We cannot accept this kind of file. Allowed file types: PDF.' });
  });

  it('refuses a damaged image', async () => {
    const photo = await jpeg();
    expect(await prepare(photo.subarray(0, 200))).toMatchObject({ ok: false, reason: 'unreadable_image' });
  });
});
