import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AttachmentItemParamsSchema,
  AttachmentListSchema,
  AttachmentParamsSchema,
  AttachmentSchema,
  AttachmentsResponseSchema,
  BookingRequestAttachmentsQuerySchema,
} from '@contract/api/attachments';
import { errorAnswers, notFound } from '../../platform/errors';
import { servedFilePolicy } from '../../platform/served-file';
import { STAFF_NOT_PATIENT, type RouteAccess } from '../../platform/route-access';
import { actorOf, temporaryKeyHolder } from './access';
import { contentDisposition } from './file-names';
import type { Owner, OwnerType } from './repository';
import type { AttachmentsService } from './service';

/**
 * Thin routes (docs/server.md#module-shape) for one shape under three bases
 * (src-contract/api/attachments.ts). Multipart parsing is registered in this plugin's own scope,
 * so no other route accepts multipart bodies.
 */

// 429: uploads under a temporary key past their budget (upload-budget.ts).
const errors = errorAnswers(400, 401, 403, 404, 409, 413, 415, 429, 503, 507);
const NO_STORE = { 'cache-control': 'no-store' };

const UPLOAD_DESCRIPTION =
  'multipart/form-data: optional text fields documentTypeId (uuid), referralDate (YYYY-MM-DD), referringDoctor, then one `file` part ' +
  '(PDF, JPEG, PNG, or HEIC when the provider allows it; checked by its bytes; images are re-encoded without their metadata). ' +
  "413 document_space_full when the booking's document space has no room for it. Under a temporary key (not staff): " +
  'past a few uploads from one address a solved X-Captcha answer is needed (403 captcha_required), past the per-address ' +
  'byte budget 429 with Retry-After, past the budget of all temporary documents 507 insufficient_storage.';

interface Base {
  prefix: string;
  owner: OwnerType;
  tag: string;
  /** Who may read and upload (the route declaration). */
  readers: RouteAccess;
  /** Who is calling, for routes open to anyone (the holder of a temporary key, or staff). */
  caller?: (request: FastifyRequest) => Promise<void>;
}

const BASES: Base[] = [
  {
    prefix: '/api/secured/appointments/:bookingKey/attachments',
    owner: 'APPOINTMENT',
    tag: 'attachments',
    readers: 'appointment-session-or-staff',
  },
  {
    prefix: '/api/secured/booking_requests/:bookingKey/attachments',
    owner: 'BOOKING_REQUEST',
    tag: 'attachments',
    readers: 'booking-request-session-or-staff',
  },
  // While booking, the temporary key is the credential (the service answers 404 when it is unknown or expired).
  {
    prefix: '/api/booking-keys/:bookingKey/attachments',
    owner: 'TEMPORARY',
    tag: 'attachments',
    readers: 'public',
    caller: temporaryKeyHolder,
  },
];

async function sendFile(
  reply: FastifyReply,
  opened: Awaited<ReturnType<AttachmentsService['open']>>,
  disposition: 'attachment' | 'inline',
): Promise<FastifyReply> {
  return reply
    .header('content-type', opened.row.content_type)
    .header('content-length', String(opened.file.size))
    .header('content-disposition', contentDisposition(disposition, opened.row.file_name))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(opened.file.stream);
}

export async function registerAttachmentRoutes(app: FastifyInstance, service: AttachmentsService): Promise<void> {
  await app.register(async (scope) => {
    // Limits are set per request from the provider's settings (upload-stream.ts); these are the ceilings.
    await scope.register(multipart, { limits: { fileSize: 52_428_800, files: 1, fields: 5, parts: 6 } });
    for (const base of BASES) {
      registerDocumentRoutes(scope, base, service);
      registerStaffDocumentRoutes(scope, base, service);
      registerFileRoutes(scope, base, service);
    }
    registerReferralDownloadRoute(scope, service);
  });
}

/** What every route of one base shares: who may call it, whose documents, and its tag. */
function routeKit(scope: FastifyInstance, base: Base) {
  return {
    api: scope.withTypeProvider<ZodTypeProvider>(),
    ownerOf: (bookingKey: string): Owner => ({ type: base.owner, key: bookingKey }),
    open: { config: { access: base.readers }, ...(base.caller === undefined ? {} : { preValidation: base.caller }) },
    staffNotPatient: { config: { access: STAFF_NOT_PATIENT } },
    tags: [base.tag],
  };
}

/** What the booking asks for, the documents it has, and uploading and replacing one. */
function registerDocumentRoutes(scope: FastifyInstance, base: Base, service: AttachmentsService): void {
  const { api, ownerOf, open, tags } = routeKit(scope, base);

  api.get(
    `${base.prefix}/response`,
    {
      ...open,
      schema: {
        tags,
        summary: 'The documents the booking asks for, the uploaded ones, and the upload limits',
        params: AttachmentParamsSchema,
        // A booking request's page while its exams change, and the booking flow (whose exams are not stored yet).
        ...(base.owner === 'APPOINTMENT' ? {} : { querystring: BookingRequestAttachmentsQuerySchema }),
        response: { 200: AttachmentsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const query = request.query as { changedExamSlugs?: string } | undefined;
      const changed = query?.changedExamSlugs?.split(',');
      return reply.headers(NO_STORE).send(await service.response(ownerOf(request.params.bookingKey), changed));
    },
  );

  api.get(
    base.prefix,
    {
      ...open,
      schema: {
        tags,
        summary: 'The uploaded documents, newest first (the viewer)',
        params: AttachmentParamsSchema,
        response: { 200: AttachmentListSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(NO_STORE).send({ attachments: await service.list(ownerOf(request.params.bookingKey)) }),
  );

  api.post(
    base.prefix,
    {
      ...open,
      schema: {
        tags,
        summary: 'Upload a document',
        description: UPLOAD_DESCRIPTION,
        consumes: ['multipart/form-data'],
        params: AttachmentParamsSchema,
        response: { 201: AttachmentSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .headers(NO_STORE)
        .send(await service.upload(ownerOf(request.params.bookingKey), actorOf(request), request)),
  );

  api.put(
    `${base.prefix}/:attachmentId`,
    {
      ...open,
      schema: {
        tags,
        summary: 'Replace a document with a new file',
        description: UPLOAD_DESCRIPTION,
        consumes: ['multipart/form-data'],
        params: AttachmentItemParamsSchema,
        response: { 200: AttachmentSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .headers(NO_STORE)
        .send(await service.replace(ownerOf(request.params.bookingKey), request.params.attachmentId, actorOf(request), request)),
  );
}

/** Staff only: deleting a document, marking the documents imported, accepting a referral's date. */
function registerStaffDocumentRoutes(scope: FastifyInstance, base: Base, service: AttachmentsService): void {
  const { api, ownerOf, staffNotPatient, tags } = routeKit(scope, base);

  api.delete(
    `${base.prefix}/:attachmentId`,
    {
      ...staffNotPatient,
      schema: {
        tags,
        summary: 'Delete a document (staff)',
        params: AttachmentItemParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.remove(ownerOf(request.params.bookingKey), request.params.attachmentId, actorOf(request));
      return reply.code(204).headers(NO_STORE).send(null);
    },
  );

  api.post(
    `${base.prefix}/imported`,
    {
      ...staffNotPatient,
      schema: {
        tags,
        summary: "Mark the booking's documents as imported into the clinic's system (staff)",
        params: AttachmentParamsSchema,
        response: { 200: AttachmentListSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.headers(NO_STORE).send({ attachments: await service.markImported(ownerOf(request.params.bookingKey), actorOf(request)) }),
  );

  api.post(
    `${base.prefix}/:attachmentId/accept-referral-date`,
    {
      ...staffNotPatient,
      schema: {
        tags,
        summary: 'Accept a referral whose date was flagged (staff)',
        params: AttachmentItemParamsSchema,
        response: { 200: AttachmentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (actor.kind !== 'staff') throw notFound('Not found.');
      return reply
        .headers(NO_STORE)
        .send(await service.overrideWarning(ownerOf(request.params.bookingKey), request.params.attachmentId, actor));
    },
  );
}

/** A document's file, downloaded or shown in the browser. */
function registerFileRoutes(scope: FastifyInstance, base: Base, service: AttachmentsService): void {
  const { api, ownerOf, open, tags } = routeKit(scope, base);

  for (const [suffix, disposition] of [
    ['download', 'attachment'],
    ['view', 'inline'],
  ] as const) {
    api.get(
      `${base.prefix}/:attachmentId/${suffix}`,
      {
        ...open,
        onSend: servedFilePolicy,
        schema: {
          tags,
          summary: disposition === 'attachment' ? 'Download a document' : 'Open a document in the browser',
          params: AttachmentItemParamsSchema,
          produces: ['application/pdf', 'image/jpeg', 'image/png'],
          response: errors,
        },
      },
      async (request, reply) => {
        const owner = ownerOf(request.params.bookingKey);
        return sendFile(reply, await service.open(owner, request.params.attachmentId, actorOf(request), suffix), disposition);
      },
    );
  }
}

/** The booking request's referral, as its older download link asks for it. */
function registerReferralDownloadRoute(scope: FastifyInstance, service: AttachmentsService): void {
  const api = scope.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/secured/booking_requests/:bookingKey/download',
    {
      config: { access: 'booking-request-session-or-staff' },
      onSend: servedFilePolicy,
      schema: {
        tags: ['attachments'],
        summary: "Download the booking request's referral (the newest one)",
        params: AttachmentParamsSchema,
        produces: ['application/pdf', 'image/jpeg', 'image/png'],
        response: errors,
      },
    },
    async (request, reply) => {
      const owner: Owner = { type: 'BOOKING_REQUEST', key: request.params.bookingKey };
      const referral = (await service.list(owner)).find((attachment) => attachment.documentTypeCode === 'REFERRAL');
      if (referral === undefined) throw notFound('This booking request has no referral.');
      return sendFile(reply, await service.open(owner, referral.id, actorOf(request), 'download'), 'attachment');
    },
  );
}
