import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FEEDBACK_CSV_ROWS_HEADER,
  FeedbackExportQuerySchema,
  FeedbackListQuerySchema,
  FeedbackListResponseSchema,
  FeedbackQuerySchema,
  FeedbackQuestionnaireResponseSchema,
  FeedbackRequestSchema,
  FeedbackSavedResponseSchema,
  type FeedbackQuery,
} from '@contract/api/referrer-feedback';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { requireStaffSession, staffRoute, subjectRef } from '../staff-access/public';
import type { FeedbackCredential, ReferrerFeedbackService } from './service';

/**
 * Thin routes for report-quality feedback (docs/rules/referrers.md#report-quality-feedback). The
 * referrer's imsec is the credential of ?imsec; ?pacsAppointmentId (an accession number) needs a
 * staff session with the referrer role. Staff (staff, admin) read the feedback and its summary.
 */

export const FEEDBACK_PATH = '/api/image_viewer_link/questionnaires';

const errors = errorAnswers(400, 401, 403, 404, 409);

async function credentialOf(request: FastifyRequest, query: FeedbackQuery): Promise<FeedbackCredential> {
  if (query.imsec !== undefined) return { kind: 'imsec', imsec: query.imsec };
  const session = await requireStaffSession(request, { anyOf: ['referrer'] });
  return {
    kind: 'session',
    accessionNumber: query.pacsAppointmentId ?? '',
    subjectRef: subjectRef(session.subject),
    // A report is the referrer's when it names their provider number (0023 keeps it on the session).
    providerNumber: session.providerNumber,
  };
}

/** A download, never shown in the page nor kept by a cache (the file name is ASCII: dates and hyphens). */
function sendCsv(reply: FastifyReply, exported: { csv: string; fileName: string; rows: number }): FastifyReply {
  return reply
    .headers({
      'cache-control': 'no-store',
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${exported.fileName}"`,
      'x-content-type-options': 'nosniff',
      [FEEDBACK_CSV_ROWS_HEADER]: String(exported.rows),
    })
    .send(exported.csv);
}

export function registerReferrerFeedbackRoutes(app: FastifyInstance, service: ReferrerFeedbackService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['referrer-feedback'];

  api.get(
    FEEDBACK_PATH,
    {
      // The referrer's image viewer link (?imsec) is the credential; ?pacsAppointmentId needs a referrer's staff session.
      config: { access: 'image-viewer-link' },
      schema: {
        tags,
        summary: "The report's feedback questionnaire, or alreadyProvided with none",
        querystring: FeedbackQuerySchema,
        response: { 200: FeedbackQuestionnaireResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const answer = await service.questionnaire(await credentialOf(request, request.query));
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );

  api.post(
    FEEDBACK_PATH,
    {
      // The referrer's image viewer link (?imsec) is the credential; ?pacsAppointmentId needs a referrer's staff session.
      config: { access: 'image-viewer-link' },
      schema: {
        tags,
        summary: "Saves the referrer's feedback on the report (once per report)",
        querystring: FeedbackQuerySchema,
        body: FeedbackRequestSchema,
        response: { 201: FeedbackSavedResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await service.submit(await credentialOf(request, request.query), request.body)),
  );

  const staffOnly = staffRoute(['staff', 'admin'], tags);
  api.get(
    '/api/staff/referrer-feedback',
    staffOnly({
      summary: 'Referrer feedback of the filter, a page at a time, its summary per referrer and per modality, and the filter choices',
      querystring: FeedbackListQuerySchema,
      response: { 200: FeedbackListResponseSchema, 401: ApiErrorBodySchema, 403: ApiErrorBodySchema },
    }),
    async (request, reply) => reply.header('cache-control', 'no-store').send(await service.list(request.query)),
  );

  api.get(
    '/api/staff/referrer-feedback.csv',
    staffOnly({
      summary: 'The referrer feedback of the filter as a CSV file (UTF-8 with BOM, formula-safe cells)',
      querystring: FeedbackExportQuerySchema,
      produces: ['text/csv'],
      response: { 400: ApiErrorBodySchema, 401: ApiErrorBodySchema, 403: ApiErrorBodySchema },
    }),
    async (request, reply) => sendCsv(reply, await service.exportCsv(request.query)),
  );
}
