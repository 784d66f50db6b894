import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AttachmentSchema,
  AttachmentsResponseSchema,
  type Attachment,
  type AttachmentsResponse,
  type StoredContentType,
} from '@contract/api/attachments';
import { json, type RouteHandler } from '../../helpers/api-server';
import { BOOKING_KEY } from '../appointments/appointment-fixtures';

export const REFERRAL_TYPE_ID = '3b7c9a1e-2d4f-4e6a-8b0c-1d2e3f4a5b6c';
export const BASE = `/api/secured/appointments/${BOOKING_KEY}/attachments`;

const MAX_IDS = 200;
let counter = 0;
const idOf = (n: number): string => `0a1b2c3d-4e5f-4a6b-8c7d-${String(n).padStart(12, '0')}`;
/** A stored file as the server answers it (checked against the contract). */
export function attachmentFixture(fileName: string, contentType: StoredContentType, overrides: Partial<Attachment> = {}): Attachment {
  counter = (counter % MAX_IDS) + 1;
  const id = idOf(counter);
  return AttachmentSchema.parse({
    id,
    fileName,
    contentType,
    size: 1234,
    documentTypeId: REFERRAL_TYPE_ID,
    documentType: { title: 'Referral', description: 'The referral from your doctor.' },
    documentTypeCode: 'REFERRAL',
    bookingKey: BOOKING_KEY,
    width: contentType === 'application/pdf' ? null : 640,
    height: contentType === 'application/pdf' ? null : 480,
    scanStatus: 'CLEAN',
    referralDate: null,
    referringDoctor: null,
    referralWarning: null,
    referralWarningMessage: null,
    uploadedAt: '2026-11-24T10:00:00.000Z',
    downloadUrl: `${BASE}/${id}/download`,
    viewUrl: `${BASE}/${id}/view`,
    ...overrides,
  });
}

/** What GET {base}/response answers for these files: the referral is asked for, and filled by the first referral. */
export function responseFixture(
  attachments: Attachment[],
  allowed: AttachmentsResponse['limits']['allowedContentTypes'] = ['application/pdf', 'image/jpeg', 'image/png'],
): AttachmentsResponse {
  const referral = attachments.find((one) => one.documentTypeId === REFERRAL_TYPE_ID) ?? null;
  return AttachmentsResponseSchema.parse({
    bookingKey: BOOKING_KEY,
    documents: [
      {
        documentTypeId: REFERRAL_TYPE_ID,
        documentTypeCode: 'REFERRAL',
        documentType: { title: 'Referral', description: 'The referral from your doctor.' },
        examSlugs: ['mri-knee'],
        hasUploadedDocument: referral !== null,
        uploadedDocument: referral === null ? null : { id: referral.id, fileName: referral.fileName },
      },
    ],
    attachments,
    limits: {
      allowedContentTypes: allowed,
      maxFileBytes: 10_485_760,
      maxFiles: 10,
      maxBytesPerBooking: 52_428_800,
      referralValidityMonths: 12,
    },
  });
}

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface AttachmentsServer {
  routes: Record<string, RouteHandler>;
  files: Attachment[];
  /** Each upload as it arrived: method, path and the raw multipart body. */
  uploads: { method: string; path: string; body: string }[];
  deletes: string[];
  /** Ids whose referral date staff accepted. */
  accepted: string[];
  /** Answer the next upload with this status and message instead (code unsupported_media_type unless given). */
  refuseNext(status: number, message: string, code?: string, details?: unknown): void;
}

/** The attachment routes of one appointment, keeping files in memory between calls. */
export function attachmentsServer(initial: Attachment[] = []): AttachmentsServer {
  const files = [...initial];
  const uploads: AttachmentsServer['uploads'] = [];
  const deletes: string[] = [];
  const accepted: string[] = [];
  let refusal: { status: number; message: string; code: string; details?: unknown } | null = null;
  const store = async (request: IncomingMessage, response: ServerResponse, replaceId?: string) => {
    const raw = (await body(request)).toString('latin1');
    uploads.push({ method: request.method ?? '', path: request.url ?? '', body: raw });
    if (refusal !== null) {
      json(response, refusal.status, {
        code: refusal.code,
        message: refusal.message,
        ...(refusal.details === undefined ? {} : { details: refusal.details }),
      });
      refusal = null;
      return;
    }
    const name = /filename="([^"]*)"/.exec(raw)?.[1] ?? 'file';
    const isReferral = raw.includes(REFERRAL_TYPE_ID);
    const stored = attachmentFixture(
      name,
      name.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg',
      isReferral ? {} : { documentTypeId: null, documentType: null, documentTypeCode: null },
    );
    const at = replaceId === undefined ? -1 : files.findIndex((one) => one.id === replaceId);
    if (at >= 0)
      files[at] = { ...stored, id: replaceId!, downloadUrl: `${BASE}/${replaceId}/download`, viewUrl: `${BASE}/${replaceId}/view` };
    else files.push(stored);
    json(response, replaceId === undefined ? 201 : 200, at >= 0 ? files[at] : stored);
  };
  const routes: Record<string, RouteHandler> = {
    [`GET ${BASE}/response`]: (_request, response) => json(response, 200, responseFixture(files)),
    [`POST ${BASE}`]: (request, response) => void store(request, response),
  };
  // The test server matches exact paths: item routes for every id the fixtures can make.
  for (let n = 1; n <= MAX_IDS; n += 1) {
    const id = idOf(n);
    routes[`PUT ${BASE}/${id}`] = (request, response) => void store(request, response, id);
    routes[`POST ${BASE}/${id}/accept-referral-date`] = (_request, response) => {
      const at = files.findIndex((one) => one.id === id);
      if (at < 0) return json(response, 404, { code: 'not_found', message: 'No such document.' });
      files[at] = { ...files[at]!, referralWarning: null, referralWarningMessage: null };
      accepted.push(id);
      json(response, 200, files[at]);
    };
    routes[`DELETE ${BASE}/${id}`] = (_request, response) => {
      deletes.push(id);
      const at = files.findIndex((one) => one.id === id);
      if (at >= 0) files.splice(at, 1);
      response.writeHead(204).end();
    };
  }
  return {
    files,
    uploads,
    deletes,
    accepted,
    routes,
    refuseNext(status, message, code = 'unsupported_media_type', details) {
      refusal = { status, message, code, details };
    },
  };
}
