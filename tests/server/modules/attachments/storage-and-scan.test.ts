import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttachmentSchema, type Attachment } from '@contract/api/attachments';
import { createAttachmentsService } from '../../../../src-server/modules/attachments/public';
import { createFolderStorage, createS3Storage } from '../../../../src-server/platform/storage';
import { createClamdScanner } from '../../../../src-server/platform/virus-scan';
import { CLAMD_BINARY, CLAMD_MISSING, startLocalClamd, TEST_VIRUS_MARKER, type LocalClamd } from '../../helpers/clamd';
import { backends, SEED_NOW } from '../../helpers/database';
import { startLocalS3, type LocalS3 } from '../../helpers/s3-server';
import { useTestApp } from '../../helpers/test-app';
import { signIn } from '../appointments/self-service-kit';
import { setOtpRequired } from '../patient-access/sign-in-kit';
import { appointmentBase, attachmentRows, LIAM, MINIMAL_PDF, multipart, send, strayFiles, type Caller } from './attachments-kit';

// The same routes with the other storage and with virus scanning: S3 against a real
// S3-compatible server (s3rver), and ClamAV's real daemon with an offline test signature.

async function stored(storage: ReturnType<typeof createS3Storage>): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of storage.list()) keys.push(item.key);
  return keys.sort();
}

describe.each(backends())('attachments in S3 storage on %s', (backend) => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3();
  });
  afterAll(async () => s3?.stop());
  const server = useTestApp({
    backend,
    env: () => ({
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint ?? '',
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
  });
  let liam: Caller;
  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    liam = { patientToken: (await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth)).browser.token ?? '' };
  });

  it('stores the upload as an object and serves it byte for byte; a refused upload leaves no object', async () => {
    const bucket = createS3Storage(s3.settings);
    const response = await send(
      server.app,
      liam,
      'POST',
      appointmentBase(LIAM.bookingKey),
      multipart({}, { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const attachment: Attachment = AttachmentSchema.parse(response.json());
    const [row] = await attachmentRows(server.db, LIAM.bookingKey);
    // Every row's object, and nothing else (the seeded requests' referrals moved here at start).
    const everyRow = async () =>
      (await server.db.query<{ storage_key: string }>(`select storage_key from attachment`)).map((one) => one.storage_key).sort();
    expect(await stored(bucket)).toEqual(await everyRow());
    expect(await stored(bucket)).toContain(row?.storage_key);
    const download = await send(server.app, liam, 'GET', attachment.downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, MINIMAL_PDF)).toBe(0);

    // Nothing is written to the local folder: several servers share the bucket.
    expect((await strayFiles(server.db, server.dataDir)).every((stray) => stray.endsWith('(no file)'))).toBe(true);

    const refused = await send(
      server.app,
      liam,
      'POST',
      appointmentBase(LIAM.bookingKey),
      multipart({}, { name: 'page.html', type: 'application/pdf', bytes: Buffer.from('<html><script>1</script></html>') }),
    );
    expect(refused.statusCode).toBe(415);
    expect(await stored(bucket)).toEqual(await everyRow());
  });
});

describe.skipIf(CLAMD_BINARY === null)(`attachments with ClamAV${CLAMD_BINARY === null ? ` (skipped: ${CLAMD_MISSING})` : ''}`, () => {
  let clamd: LocalClamd;
  beforeAll(async () => {
    clamd = await startLocalClamd();
  }, 60_000);
  afterAll(async () => clamd?.stop());
  const server = useTestApp({ env: () => ({ CLAMAV_SOCKET: clamd.socket }) });
  let liam: Caller;
  beforeAll(async () => {
    server.clock.set(SEED_NOW);
    await setOtpRequired(server.db, false);
    liam = { patientToken: (await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth)).browser.token ?? '' };
  });

  const upload = (name: string, bytes: Buffer) =>
    send(server.app, liam, 'POST', appointmentBase(LIAM.bookingKey), multipart({}, { name, type: 'application/pdf', bytes }));
  const infectedPdf = Buffer.from(MINIMAL_PDF.toString().replace('%%EOF', `%${TEST_VIRUS_MARKER}\n%%EOF`));

  it('stores a clean file as CLEAN and refuses an infected one, leaving nothing behind', async () => {
    const clean = await upload('clean.pdf', MINIMAL_PDF);
    expect(clean.statusCode, clean.body).toBe(201);
    expect(AttachmentSchema.parse(clean.json()).scanStatus).toBe('CLEAN');
    const infected = await upload('infected.pdf', infectedPdf);
    expect(infected.statusCode).toBe(415);
    expect(infected.json<{ message: string }>().message).toMatch(/virus/);
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toHaveLength(1);
    expect(await strayFiles(server.db, server.dataDir)).toEqual([]);
  });

  it('keeps a file in quarantine while the scanner is down (never served), and releases it when a scan says clean', async () => {
    await clamd.stop({ keepFolder: true });
    const waiting = await upload('while-down.pdf', MINIMAL_PDF);
    expect(waiting.statusCode, waiting.body).toBe(201);
    const attachment = AttachmentSchema.parse(waiting.json());
    expect(attachment.scanStatus).toBe('QUARANTINED');
    expect((await send(server.app, liam, 'GET', attachment.downloadUrl)).statusCode).toBe(409);

    clamd = await startLocalClamd(clamd.folder);
    const service = createAttachmentsService({
      db: server.db,
      clock: server.clock,
      storage: createFolderStorage(join(server.dataDir, 'files')),
      scanner: createClamdScanner({ socket: clamd.socket }),
      workDir: join(server.dataDir, 'upload-work'),
    });
    expect(await service.rescanQuarantined()).toEqual({ clean: 1, infected: 0, waiting: 0 });
    const served = await send(server.app, liam, 'GET', attachment.downloadUrl);
    expect(served.statusCode).toBe(200);
  }, 60_000);
});
