import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import type { Database } from '../../../../src-server/db/connection';
import { CLIENT_HEADERS } from '../appointments/self-service-kit';

/**
 * Shared steps of the attachment tests: multipart bodies built byte by byte (as a browser's
 * FormData sends them: text fields, then the file), the corpus of files, and what is left in
 * the database and in storage after a request.
 */

export const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };
export const CHLOE = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };
export const HARRIET = { bookingKey: 'sJOROmG7Kksv3ga8UObC2A', dateOfBirth: '1962-09-08' };

export const appointmentBase = (key: string): string => `/api/secured/appointments/${key}/attachments`;
export const requestBase = (key: string): string => `/api/secured/booking_requests/${key}/attachments`;
export const temporaryBase = (key: string): string => `/api/booking-keys/${key}/attachments`;

export interface FilePart {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** A name with a quote or a line break goes as RFC 5987 filename* (as it reaches the server decoded); others as sent by browsers. */
function fileNameParameter(name: string): string {
  return /["\r\n]/.test(name) ? `filename*=UTF-8''${encodeURIComponent(name)}` : `filename="${name}"`;
}

/** A multipart/form-data body: the text fields in order, then `file` (unless null). */
export function multipart(fields: Record<string, string>, file: FilePart | null): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file !== null) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${fileNameParameter(file.name)}\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export interface Caller {
  patientToken?: string;
  staffToken?: string;
}

/** Sends a request as a browser would: the client header, and the caller's cookies. */
export function send(
  app: FastifyInstance,
  caller: Caller,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: { payload: Buffer; headers: Record<string, string> },
): Promise<LightMyRequestResponse> {
  const cookies = [
    caller.patientToken === undefined ? null : `${PATIENT_SESSION_COOKIE}=${caller.patientToken}`,
    caller.staffToken === undefined ? null : `${STAFF_SESSION_COOKIE}=${caller.staffToken}`,
  ].filter((cookie) => cookie !== null);
  return app.inject({
    method,
    url,
    headers: { ...CLIENT_HEADERS, ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}), ...(body?.headers ?? {}) },
    ...(body === undefined ? {} : { payload: body.payload }),
  });
}

export const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export async function jpeg(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .toBuffer();
}

/** A JPEG carrying a GPS position and a camera model in its EXIF. */
export async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .withExif({
      IFD0: { Make: 'PortalTestCamera', Model: 'Secret Phone 15' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 0/1' },
    })
    .jpeg()
    .toBuffer();
}

/** A PNG signature and IHDR chunk claiming 30000 x 30000 pixels, and nothing else. */
export function hugePngHeader(): Buffer {
  const header = Buffer.alloc(8 + 25);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'ascii');
  header.writeUInt32BE(30000, 16);
  header.writeUInt32BE(30000, 20);
  header.set([8, 2, 0, 0, 0], 24);
  return header;
}

export async function attachmentRows(db: Database, ownerKey: string): Promise<{ id: string; storage_key: string }[]> {
  return db.query(`select id::text as id, storage_key from attachment where owner_key = $1 order by created_at`, [ownerKey]);
}

/** Removes one booking's attachments, rows and files, so each test starts with none. */
export async function clearAttachments(db: Database, dataDir: string, ownerKey: string): Promise<void> {
  const rows = await db.query<{ storage_key: string }>(`delete from attachment where owner_key = $1 returning storage_key`, [ownerKey]);
  for (const row of rows) await rm(join(dataDir, 'files', row.storage_key), { force: true });
}

/**
 * What should not be there: stored files no attachment row names, rows whose file is missing,
 * and anything left in the upload work folder. Empty after every request, refused or not.
 */
export async function strayFiles(db: Database, dataDir: string): Promise<string[]> {
  const stored = await readdir(join(dataDir, 'files')).catch(() => [] as string[]);
  const rows = await db.query<{ storage_key: string }>(`select storage_key from attachment where scan_status <> 'INFECTED'`);
  const named = new Set(rows.map((row) => row.storage_key));
  const work = await readdir(join(dataDir, 'upload-work')).catch(() => [] as string[]);
  return [
    ...stored.filter((name) => !named.has(name)).map((name) => `files/${name} (no row)`),
    ...[...named].filter((key) => !stored.includes(key)).map((key) => `row ${key} (no file)`),
    ...work.map((name) => `upload-work/${name}`),
  ].sort();
}

export async function storedFiles(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'files')).catch(() => [] as string[])).filter((name) => !name.startsWith('.')).sort();
}
