import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttachmentSchema, AttachmentsResponseSchema, type Attachment } from '@contract/api/attachments';
import { backends, SEED_NOW } from '../../helpers/database';
import { auditSince, signIn } from '../appointments/self-service-kit';
import { lastAuditId, setOtpRequired } from '../patient-access/sign-in-kit';
import { ADMIN_CLAIMS, REFERRER_CLAIMS, STAFF_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import {
  appointmentBase,
  attachmentRows,
  CHLOE,
  clearAttachments,
  hugePngHeader,
  jpeg,
  jpegWithGps,
  LIAM,
  MINIMAL_PDF,
  multipart,
  send,
  storedFiles,
  strayFiles,
  type Caller,
} from './attachments-kit';
import { objectStreamPdf, pdfWith, pdfWithBefore } from './pdf-fixtures';

const JS_OPEN = '<</S/JavaScript/JS(app.alert(1))>>';
/** A ZIP end record whose comment (1500 bytes, ending in the PDF's end marker) keeps it out of the last KiB. */
const ZIP_END_WITH_COMMENT = (() => {
  const comment = Buffer.from(`${' '.repeat(1500)}\n%%EOF\n`);
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(comment.length, 20);
  return Buffer.concat([record, comment]);
})();

// The attachment routes on a real database and a real folder storage under the app's DATA_DIR
// (docs/rules/attachments.md). Sessions are real: patients sign in through the API, staff with
// RS256 tokens from a test identity provider.

describe.each(backends())('attachments on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  let liam: Caller;
  let chloe: Caller;
  let staff: Caller;
  let admin: Caller;
  let referrer: Caller;
  let referralTypeId: string;

  async function staffCaller(claims: JWTPayload): Promise<Caller> {
    return { staffToken: (await signedIn(claims)).token ?? '' };
  }

  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    liam = { patientToken: (await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth)).browser.token ?? '' };
    chloe = { patientToken: (await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST')).browser.token ?? '' };
    staff = await staffCaller(STAFF_CLAIMS);
    admin = await staffCaller(ADMIN_CLAIMS);
    referrer = await staffCaller(REFERRER_CLAIMS);
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    referralTypeId = row?.id ?? '';
  });
  beforeEach(async () => {
    server.clock.set(SEED_NOW);
    await clearAttachments(server.db, server.dataDir, LIAM.bookingKey);
  });

  async function upload(
    caller: Caller,
    fields: Record<string, string>,
    name: string,
    bytes: Uint8Array,
    type = 'application/octet-stream',
  ) {
    return send(server.app, caller, 'POST', appointmentBase(LIAM.bookingKey), multipart(fields, { name, type, bytes }));
  }

  async function uploaded(caller: Caller, fields: Record<string, string>, name: string, bytes: Uint8Array): Promise<Attachment> {
    const response = await upload(caller, fields, name, bytes);
    expect(response.statusCode, response.body).toBe(201);
    return AttachmentSchema.parse(response.json());
  }

  it('lists the documents the exams ask for, takes a referral PDF, and serves it back byte for byte', async () => {
    const before = AttachmentsResponseSchema.parse(
      (await send(server.app, liam, 'GET', `${appointmentBase(LIAM.bookingKey)}/response`)).json(),
    );
    expect(before.documents.map((document) => document.documentTypeCode)).toContain('REFERRAL');
    expect(before.documents.find((document) => document.documentTypeCode === 'REFERRAL')).toMatchObject({
      examSlugs: ['mri-knee'],
      hasUploadedDocument: false,
      uploadedDocument: null,
    });
    expect(before.limits.allowedContentTypes).toEqual(['application/pdf', 'image/jpeg', 'image/png']);

    const since = await lastAuditId(server.db);
    const attachment = await uploaded(liam, { documentTypeId: referralTypeId }, 'referral knee.pdf', MINIMAL_PDF);
    expect(attachment).toMatchObject({
      fileName: 'referral knee.pdf',
      contentType: 'application/pdf',
      size: MINIMAL_PDF.length,
      documentTypeCode: 'REFERRAL',
      documentType: { title: 'Referral' },
      scanStatus: 'CLEAN',
      bookingKey: LIAM.bookingKey,
    });

    const after = AttachmentsResponseSchema.parse(
      (await send(server.app, liam, 'GET', `${appointmentBase(LIAM.bookingKey)}/response`)).json(),
    );
    expect(after.documents.find((document) => document.documentTypeCode === 'REFERRAL')).toMatchObject({
      hasUploadedDocument: true,
      uploadedDocument: { id: attachment.id, fileName: 'referral knee.pdf' },
    });

    const download = await send(server.app, liam, 'GET', attachment.downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, MINIMAL_PDF)).toBe(0);
    expect(download.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="referral knee.pdf"; filename*=UTF-8''referral%20knee.pdf`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    expect(String(download.headers['content-security-policy'])).toMatch(/^sandbox;/);
    const view = await send(server.app, liam, 'GET', attachment.viewUrl);
    expect(view.headers['content-disposition']).toMatch(/^inline; /);
    expect((await auditSince(server.db, since)).map((row) => row.action)).toEqual([
      'attachment.uploaded',
      'attachment.downloaded',
      'attachment.viewed',
    ]);
  });

  it('re-encodes photos: the GPS position and the camera are gone, the pixels stay', async () => {
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const attachment = await uploaded(liam, {}, 'IMG_0001.JPG', original);
    expect(attachment).toMatchObject({ contentType: 'image/jpeg', width: 320, height: 240, fileName: 'IMG_0001.jpg' });
    const served = (await send(server.app, liam, 'GET', attachment.downloadUrl)).rawPayload;
    const metadata = await sharp(served).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(served.includes(Buffer.from('Secret Phone'))).toBe(false);
    expect(served.includes(Buffer.from('PortalTestCamera'))).toBe(false);
    expect([metadata.width, metadata.height]).toEqual([320, 240]);
  });

  it.each([
    ['HTML renamed .pdf', 'scan.pdf', Buffer.from('<!doctype html><html><script>alert(1)</script></html>')],
    ['SVG with script', 'photo.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a 30000x30000 PNG header', 'big.png', hugePngHeader()],
    ['a zero-byte file', 'empty.pdf', Buffer.alloc(0)],
    [
      'a PDF with /JavaScript',
      'active.pdf',
      Buffer.from(MINIMAL_PDF.toString().replace('/Type/Catalog', '/Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>')),
    ],
    ['a ZIP renamed .jpg', 'photo.jpg', Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.from('zip content here')])],
    ['an executable', 'referral.pdf', Buffer.from([0x4d, 0x5a, 0x90, 0x00, ...Buffer.from('This program cannot be run')])],
  ])('refuses %s with 415 and leaves no row and no file', async (_name, fileName, bytes) => {
    const response = await upload(liam, {}, fileName, bytes, 'application/pdf');
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json<{ code: string; message: string }>().code).toBe('unsupported_media_type');
    expect(response.json<{ message: string }>().message).not.toContain(fileName);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it.each([
    ['a JavaScript open action in a commented object stream', objectStreamPdf({ action: JS_OPEN, dictionaryExtra: '%c\n' }), 'pdf_script'],
    [
      'a JavaScript open action in an object stream under a predictor',
      objectStreamPdf({ action: JS_OPEN, predictorColumns: 8 }),
      'pdf_script',
    ],
    [
      'a JavaScript open action in a padded object stream',
      objectStreamPdf({ action: JS_OPEN, dictionaryExtra: ' '.repeat(5000) }),
      'pdf_script',
    ],
    ['a /URI action', pdfWith('/OpenAction<</S/URI/URI(https://attacker.example/)>>'), 'pdf_link'],
    ['a /SubmitForm action', pdfWith('/OpenAction<</S/SubmitForm/F(https://attacker.example/)>>'), 'pdf_link'],
    ['a /GoToR action', pdfWith('/OpenAction<</S/GoToR/F(other.pdf)/D[0/Fit]>>'), 'pdf_link'],
    ['an /ImportData action', pdfWith('/OpenAction<</S/ImportData/F(data.fdf)>>'), 'pdf_link'],
    ['HTML after the first KiB', pdfWithBefore(`%${' '.repeat(2000)}\n%<script>alert(1)</script>\n`), 'polyglot'],
    ['a ZIP end record 1.5 KiB from the end', Buffer.concat([MINIMAL_PDF, ZIP_END_WITH_COMMENT]), 'polyglot'],
  ])('refuses a PDF with %s with 415 and its reason (issue 32)', async (_name, bytes, reason) => {
    const response = await upload(liam, {}, 'referral.pdf', bytes, 'application/pdf');
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json<{ code: string; details: { reason: string } }>()).toMatchObject({
      code: 'unsupported_media_type',
      details: { reason },
    });
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('refuses one byte over the limit with 413 while streaming, and leaves nothing behind', async () => {
    await server.db.query(`update attachment_settings set max_file_bytes = 2048`);
    try {
      const exactly = Buffer.concat([MINIMAL_PDF, Buffer.alloc(2048 - MINIMAL_PDF.length, 0x20)]);
      const over = Buffer.concat([exactly, Buffer.from(' ')]);
      const response = await upload(liam, {}, 'big.pdf', over);
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json<{ message: string }>().message).toMatch(/too large/);
      expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
      expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
    } finally {
      await server.db.query(`update attachment_settings set max_file_bytes = default`);
    }
  });

  it('stops at the per-booking file count', async () => {
    await server.db.query(`update attachment_settings set max_files_per_booking = 2`);
    try {
      await uploaded(liam, {}, 'one.pdf', MINIMAL_PDF);
      await uploaded(liam, {}, 'two.pdf', MINIMAL_PDF);
      const third = await upload(liam, {}, 'three.pdf', MINIMAL_PDF);
      expect(third.statusCode).toBe(413);
      expect(third.json<{ message: string }>().message).toContain('2 documents');
      expect(await attachmentRows(server.db, LIAM.bookingKey)).toHaveLength(2);
    } finally {
      await server.db.query(`update attachment_settings set max_files_per_booking = default`);
    }
  });

  it('refuses bad fields with 400 and changes nothing', async () => {
    for (const fields of <Record<string, string>[]>[
      { documentTypeId: 'nope' },
      { referralDate: '2026-02-30' },
      { favouriteColour: 'blue' },
      { documentTypeId: randomUUID() },
    ]) {
      const response = await upload(liam, fields, 'a.pdf', MINIMAL_PDF);
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
    }
    const noFile = await send(
      server.app,
      liam,
      'POST',
      appointmentBase(LIAM.bookingKey),
      multipart({ documentTypeId: referralTypeId }, null),
    );
    expect(noFile.statusCode).toBe(400);
    const json = await send(server.app, liam, 'POST', appointmentBase(LIAM.bookingKey), {
      payload: Buffer.from('{}'),
      headers: { 'content-type': 'application/json' },
    });
    expect(json.statusCode).toBe(415);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('names served files safely (RFC 6266): no path, no header injection, no hidden extension', async () => {
    const cases: [string, string][] = [
      ['../../x', 'x.pdf'],
      ['a"\tX-Evil: 1.pdf', 'a_X-Evil_ 1.pdf'],
      ['invoice\u202Efdp.exe', 'invoicefdp.pdf'],
      ['Упат за МРИ.pdf', 'Упат за МРИ.pdf'],
    ];
    for (const [sent, shown] of cases) {
      const attachment = await uploaded(liam, {}, sent, MINIMAL_PDF);
      expect(attachment.fileName).toBe(shown);
      const response = await send(server.app, liam, 'GET', attachment.downloadUrl);
      expect(response.headers['x-evil']).toBeUndefined();
      const disposition = String(response.headers['content-disposition']);
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+$/);
      expect(decodeURIComponent(disposition.split("UTF-8''")[1] ?? '')).toBe(shown);
    }
    const stored = await attachmentRows(server.db, LIAM.bookingKey);
    expect(stored.every((row) => /^[A-Za-z0-9_-]{22,64}$/.test(row.storage_key))).toBe(true);
    // A line break in the name never reaches a header: the multipart parser drops such a part.
    const injected = await upload(liam, {}, 'a"\r\nX-Evil: 1.pdf', MINIMAL_PDF);
    expect(injected.statusCode).toBe(400);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toHaveLength(stored.length);
  });

  it('replaces a document: same id, new bytes, old file gone', async () => {
    const first = await uploaded(liam, { documentTypeId: referralTypeId }, 'old.pdf', MINIMAL_PDF);
    const [before] = await attachmentRows(server.db, LIAM.bookingKey);
    const photo = await jpeg(800, 600);
    const response = await send(
      server.app,
      liam,
      'PUT',
      `${appointmentBase(LIAM.bookingKey)}/${first.id}`,
      multipart({ documentTypeId: referralTypeId }, { name: 'new.jpg', type: 'image/jpeg', bytes: photo }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const replaced = AttachmentSchema.parse(response.json());
    expect(replaced).toMatchObject({ id: first.id, fileName: 'new.jpg', contentType: 'image/jpeg', width: 800, height: 600 });
    const [after] = await attachmentRows(server.db, LIAM.bookingKey);
    expect(after?.storage_key).not.toBe(before?.storage_key);
    const files = await storedFiles(server.dataDir);
    expect(files).toContain(after?.storage_key);
    expect(files).not.toContain(before?.storage_key);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('lets staff delete after sign-in; a patient or a referrer cannot', async () => {
    const attachment = await uploaded(liam, {}, 'mine.pdf', MINIMAL_PDF);
    const url = `${appointmentBase(LIAM.bookingKey)}/${attachment.id}`;
    expect((await send(server.app, liam, 'DELETE', url)).statusCode).toBe(403);
    expect((await send(server.app, referrer, 'DELETE', url)).statusCode).toBe(403);
    expect((await send(server.app, {}, 'DELETE', url)).statusCode).toBe(401);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toHaveLength(1);
    const since = await lastAuditId(server.db);
    expect((await send(server.app, staff, 'DELETE', url)).statusCode).toBe(204);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toEqual([]);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
    const [audit] = await auditSince(server.db, since);
    expect(audit).toMatchObject({ action: 'attachment.deleted', actor: expect.stringMatching(/^staff:/) });
    expect((await send(server.app, admin, 'DELETE', url)).statusCode).toBe(404);
  });

  it("keeps one booking's documents from another: 401 for the other's key, 404 for the other's id", async () => {
    const liams = await uploaded(liam, {}, 'liam.pdf', MINIMAL_PDF);
    expect((await send(server.app, chloe, 'GET', appointmentBase(LIAM.bookingKey))).statusCode).toBe(401);
    expect((await send(server.app, chloe, 'GET', liams.downloadUrl)).statusCode).toBe(401);
    const chloesBase = `/api/secured/booking_requests/${CHLOE.bookingKey}/attachments`;
    for (const [method, url] of [
      ['GET', `${chloesBase}/${liams.id}/download`],
      ['GET', `${chloesBase}/${liams.id}/view`],
    ] as const) {
      expect((await send(server.app, chloe, method, url)).statusCode).toBe(404);
    }
    const put = await send(
      server.app,
      chloe,
      'PUT',
      `${chloesBase}/${liams.id}`,
      multipart({}, { name: 'x.pdf', type: 'application/pdf', bytes: MINIMAL_PDF }),
    );
    expect(put.statusCode).toBe(404);
    const list = await send(server.app, chloe, 'GET', chloesBase);
    expect(list.json<{ attachments: Attachment[] }>().attachments.map((attachment) => attachment.id)).not.toContain(liams.id);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toHaveLength(1);
  });

  it('warns about a referral dated in the future or older than the validity, and staff can accept it', async () => {
    const future = await uploaded(
      liam,
      { documentTypeId: referralTypeId, referralDate: '2026-04-01', referringDoctor: 'Dr Ada Lovelace' },
      'r.pdf',
      MINIMAL_PDF,
    );
    expect(future).toMatchObject({ referralWarning: 'FUTURE', referringDoctor: 'Dr Ada Lovelace', referralDate: '2026-04-01' });
    expect(future.referralWarningMessage).toMatch(/future/);
    const old = await uploaded(liam, { documentTypeId: referralTypeId, referralDate: '2025-03-09' }, 'r.pdf', MINIMAL_PDF);
    expect(old.referralWarning).toBe('EXPIRED');
    expect(old.referralWarningMessage).toMatch(/more than 12 months old/);
    const fine = await uploaded(liam, { documentTypeId: referralTypeId, referralDate: '2025-03-10' }, 'r.pdf', MINIMAL_PDF);
    expect(fine.referralWarning).toBeNull();
    const accept = `${appointmentBase(LIAM.bookingKey)}/${old.id}/accept-referral-date`;
    expect((await send(server.app, liam, 'POST', accept)).statusCode).toBe(403);
    const accepted = await send(server.app, staff, 'POST', accept);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(AttachmentSchema.parse(accepted.json()).referralWarning).toBeNull();
  });
});
