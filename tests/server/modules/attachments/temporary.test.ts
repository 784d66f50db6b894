import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AttachmentListSchema, AttachmentSchema, AttachmentsResponseSchema } from '@contract/api/attachments';
import { importLegacyReferrals } from '../../../../src-server/modules/attachments/legacy-referrals';
import { createAttachmentsService } from '../../../../src-server/modules/attachments/public';
import { createFolderStorage } from '../../../../src-server/platform/storage';
import { noVirusScanner } from '../../../../src-server/platform/virus-scan';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { CLIENT_HEADERS, signIn } from '../appointments/self-service-kit';
import { answerScreening, book, patient, slotsOn } from '../booking/booking-test-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { appointmentBase, HARRIET, jpeg, MINIMAL_PDF, multipart, send, strayFiles, temporaryBase } from './attachments-kit';

// Documents uploaded while booking (docs/rules/attachments.md#where-they-belong): under a temporary
// questionnaire key, moved to the booking in its transaction, or to a new key after a failed
// booking; and the referrals earlier versions kept in the database.

describe.each(backends())('temporary documents on %s', (backend) => {
  const server = useTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));
  beforeEach(() => server.clock.set(SEED_NOW));

  async function newKey(): Promise<string> {
    const response = await server.app.inject({ method: 'POST', url: '/api/questionnaires/booking-keys', headers: CLIENT_HEADERS });
    expect(response.statusCode).toBe(201);
    return response.json<{ bookingKey: string }>().bookingKey;
  }

  /** A small PDF sent as the booking form sends a document, under a temporary key. */
  const uploadPdfUnder = (key: string) =>
    send(server.app, {}, 'POST', temporaryBase(key), multipart({}, { name: 'r.pdf', type: 'application/pdf', bytes: MINIMAL_PDF }));

  it('keeps a photo uploaded while booking and gives it to the booking made with the key', async () => {
    const key = await newKey();
    const photo = await jpeg(1200, 1600);
    const uploaded = await send(
      server.app,
      {},
      'POST',
      temporaryBase(key),
      multipart({}, { name: 'referral.jpg', type: 'image/jpeg', bytes: photo }),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const attachment = AttachmentSchema.parse(uploaded.json());
    expect(attachment.downloadUrl).toBe(`${temporaryBase(key)}/${attachment.id}/download`);
    expect((await send(server.app, {}, 'GET', attachment.viewUrl)).statusCode).toBe(200);
    const response = AttachmentsResponseSchema.parse((await send(server.app, {}, 'GET', `${temporaryBase(key)}/response`)).json());
    expect(response.attachments.map((item) => item.id)).toEqual([attachment.id]);
    expect(response.documents).toEqual([]);
    // The booking flow names its exams (not stored yet): their document types are asked for.
    const forExams = AttachmentsResponseSchema.parse(
      (await send(server.app, {}, 'GET', `${temporaryBase(key)}/response?changedExamSlugs=mri-knee`)).json(),
    );
    expect(forExams.documents.map((document) => document.documentTypeCode)).toContain('REFERRAL');
    expect((await send(server.app, {}, 'GET', `${temporaryBase(key)}/response?changedExamSlugs=NOT%20A%20SLUG`)).statusCode).toBe(400);

    const dateOfBirth = '1968-07-21';
    await answerScreening(server.app, key, ['mri-knee']);
    const slots = await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-24');
    const booked = await book(server.app, {
      exams: ['mri-knee'],
      clinicSlug: 'parramatta',
      startsAt: slots[0]?.startsAt ?? '',
      questionnaireKey: key,
      patient: patient({ dateOfBirth }),
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const bookingKey = booked.json<{ bookingKey: string }>().bookingKey;

    // The key is used up: its documents are the booking's now.
    expect((await send(server.app, {}, 'GET', temporaryBase(key))).statusCode).toBe(404);
    expect((await send(server.app, {}, 'GET', attachment.downloadUrl)).statusCode).toBe(404);
    const signed = await signIn(server.app, bookingKey, dateOfBirth);
    const list = AttachmentListSchema.parse(
      (await send(server.app, { patientToken: signed.browser.token ?? '' }, 'GET', appointmentBase(bookingKey))).json(),
    );
    expect(list.attachments.map((item) => [item.id, item.bookingKey, item.downloadUrl])).toEqual([
      [attachment.id, bookingKey, `${appointmentBase(bookingKey)}/${attachment.id}/download`],
    ]);
  });

  it('moves the documents to the new key when a failed booking is re-keyed', async () => {
    const oldKey = await newKey();
    const newer = await newKey();
    const uploaded = await uploadPdfUnder(oldKey);
    expect(uploaded.statusCode).toBe(201);
    const reKey = await server.app.inject({
      method: 'POST',
      url: '/api/questionnaires/re-key',
      headers: CLIENT_HEADERS,
      payload: { oldBookingKey: oldKey, newBookingKey: newer },
    });
    expect(reKey.statusCode, reKey.body).toBe(200);
    expect((await send(server.app, {}, 'GET', temporaryBase(oldKey))).statusCode).toBe(404);
    const list = AttachmentListSchema.parse((await send(server.app, {}, 'GET', temporaryBase(newer))).json());
    expect(list.attachments).toHaveLength(1);
  });

  it('answers 404 for a key never issued or expired, and takes nothing under it', async () => {
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    const refused = await uploadPdfUnder(unknown);
    expect(refused.statusCode).toBe(404);
    const key = await newKey();
    server.clock.advance(25 * 60 * 60 * 1000);
    const late = await uploadPdfUnder(key);
    expect(late.statusCode).toBe(404);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('moved the stored referrals into file storage at start, and leaves one the checks refuse where it was', async () => {
    expect(await server.db.query('select id from booking_request_referral')).toEqual([]);
    const rows = await server.db.query<{ owner_key: string; code: string }>(
      `select a.owner_key, d.code from attachment a join document_type d on d.id = a.document_type_id where a.owner_type = 'BOOKING_REQUEST' and a.owner_key = $1`,
      [HARRIET.bookingKey],
    );
    expect(rows.map((row) => row.code)).toEqual(['REFERRAL', 'REFERRAL']);

    const [html] = await server.db.query<{ id: string }>(
      `insert into booking_request_referral (booking_key, file_name, content, sha256, created_at)
       values ($1, 'scan.pdf', convert_to('<html><script>alert(1)</script></html>', 'UTF8'), repeat('0', 64), now()) returning id::text as id`,
      [HARRIET.bookingKey],
    );
    const work = mkdtempSync(join(tmpdir(), 'portal-legacy-'));
    const storage = createFolderStorage(join(work, 'files'));
    const service = createAttachmentsService({
      db: server.db,
      clock: server.clock,
      storage,
      scanner: noVirusScanner,
      workDir: join(work, 'work'),
    });
    expect(await importLegacyReferrals(server.db, service, storage, join(work, 'work'))).toEqual({ moved: 0, refused: 1 });
    expect(await server.db.query('select id::text as id from booking_request_referral')).toEqual([{ id: html?.id }]);
    expect(readdirSync(join(work, 'work'))).toEqual([]);
    await server.db.query('delete from booking_request_referral');
  });
});
