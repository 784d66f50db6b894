import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ImageGenerateAnswerSchema, ImageGenerateQuerySchema, ImsecQuerySchema, ReferrerReportSchema } from '@contract/api/quick-report';
import { ReportPdfQuerySchema } from '@contract/api/results';
import { errorAnswers } from '../../platform/errors';
import type { RefusalPage } from '../../platform/served-file';
import { reportPdfRoute, RESULTS_EXPIRED_URL, sendReportPdf } from '../results/public';
import { staffSessionIfAny, subjectRef } from '../staff-access/public';
import type { QuickReportReader, QuickReportService } from './service';

/**
 * Thin routes for the referrer's quick report (docs/rules/referrers.md#quick-report): the
 * referrer imsec in the query is the credential; a signed-in referrer is named in the audit.
 */

const errors = errorAnswers(400, 403, 404, 410);
const NO_STORE = { 'cache-control': 'private, no-store' };

/** A PDF tab of an expired link goes to the page saying so; another refusal to the general one. */
const pdfRefusalPage: RefusalPage = ({ code }) => (code === 'image_link_expired' ? RESULTS_EXPIRED_URL : '/deny');

async function readerOf(request: FastifyRequest): Promise<QuickReportReader> {
  const staff = await staffSessionIfAny(request);
  const referrer = staff?.roles.includes('referrer') === true ? staff : null;
  return { actor: referrer !== null ? subjectRef(referrer.subject) : 'referrer_link', referrer };
}

export function registerQuickReportRoutes(app: FastifyInstance, quickReport: QuickReportService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['referrers'];

  api.get(
    '/api/image_viewer_link/report',
    {
      config: { access: 'image-viewer-link' },
      schema: {
        tags,
        summary: "A referring doctor holding the quick report link (referrer imsec): the report, its patient and the images' state",
        querystring: ImsecQuerySchema,
        response: { 200: ReferrerReportSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(NO_STORE).send(await quickReport.report(request.query.imsec, await readerOf(request))),
  );

  api.get(
    '/api/image_viewer_link/report.pdf',
    reportPdfRoute(
      'image-viewer-link',
      pdfRefusalPage,
    )({
      tags,
      summary: 'A referring doctor holding the quick report link (referrer imsec): the report as a PDF',
      querystring: ImsecQuerySchema.extend(ReportPdfQuerySchema.shape),
      response: errors,
    }),
    async (request, reply) =>
      sendReportPdf(reply, request.query.download, async (disposition) =>
        quickReport.pdf(request.query.imsec, await readerOf(request), disposition),
      ),
  );

  api.post(
    '/api/image_viewer/generate',
    {
      config: { access: 'image-viewer-link' },
      schema: {
        tags,
        summary: "A referring doctor holding the quick report link (referrer imsec): ask the PACS for the report's images",
        querystring: ImageGenerateQuerySchema,
        response: { 202: ImageGenerateAnswerSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .headers(NO_STORE)
        .send({ images: await quickReport.generate(request.query, await readerOf(request)) }),
  );
}
