import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ImageViewerDirectRequestSchema,
  ImageViewerDirectResponseSchema,
  ImageViewerQuerySchema,
  ImageViewerResponseSchema,
} from '@contract/api/image-viewer';
import { BookingKeyParamsSchema } from '@contract/api/appointments';
import {
  HistoryReportParamsSchema,
  PatientMatchRequestSchema,
  PatientMatchResponseSchema,
  PatientResultSchema,
  ReportPdfQuerySchema,
  resultPagePath,
} from '@contract/api/results';
import { errorAnswers } from '../../platform/errors';
import type { RefusalPage } from '../../platform/served-file';
import { patientSessionOf } from '../patient-access/public';
import { staffSessionIfAny, subjectRef } from '../staff-access/public';
import { registerGlossaryRoute, type LoadedGlossary } from './glossary';
import type { ImageViewerService } from './image-viewer';
import type { PatientResultsService, ResultReader } from './patient-results';
import { reportPdfRoute, sendReportPdf } from './report-pdf';

/**
 * Thin routes for the patient's side of results (docs/rules/results.md#result-page): the result
 * and its PDF need a fully signed-in session of a results type for the booking in the path; the
 * image viewer link is its own credential (a signed link, checked in image-viewer.ts).
 */

const errors = errorAnswers(400, 401, 403, 404);
const NO_STORE = { 'cache-control': 'private, no-store' };

/** A PDF tab refused (the session ran out, the report is not released) goes to the result page, which signs in again and says why. */
const resultPageOf =
  (patientPortal: boolean): RefusalPage =>
  ({ params }) =>
    resultPagePath((params as { bookingKey: string }).bookingKey, patientPortal);

function readerOf(request: FastifyRequest): ResultReader {
  return { shared: patientSessionOf(request).shared };
}

export function registerPatientResultRoutes(
  app: FastifyInstance,
  results: PatientResultsService,
  viewer: ImageViewerService,
  glossary?: () => Promise<LoadedGlossary>,
): void {
  registerGlossaryRoute(app, glossary);
  registerResultRoutes(app, results);
  registerResultHistoryRoutes(app, results);
  registerImageViewerRoutes(app, viewer);
}

/** The patient's result: the report, its PDF, and the portal's check that the patient is who the result is for. */
function registerResultRoutes(app: FastifyInstance, results: PatientResultsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['results'];

  api.get(
    '/api/results/:bookingKey',
    {
      config: { access: 'results-session' },
      schema: {
        tags,
        summary: "Patient (results sign-in): the appointment's result: the report once released, else when it will be",
        params: BookingKeyParamsSchema,
        response: { 200: PatientResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const reader = readerOf(request);
      return reply.headers(NO_STORE).send(await results.result(request.params.bookingKey, reader));
    },
  );

  api.get(
    '/api/results/:bookingKey/report.pdf',
    reportPdfRoute(
      'results-session',
      resultPageOf(false),
    )({
      tags,
      summary: 'Patient (results sign-in): the released report as a PDF, inline or (download=true) as an attachment',
      params: BookingKeyParamsSchema,
      querystring: ReportPdfQuerySchema,
      response: errors,
    }),
    async (request, reply) => {
      const reader = readerOf(request);
      return sendReportPdf(reply, request.query.download, (disposition) =>
        results.reportPdf(request.params.bookingKey, reader, disposition),
      );
    },
  );

  api.post(
    '/api/results/:bookingKey/patient-match',
    {
      config: { access: 'portal-session' },
      schema: {
        tags,
        summary:
          'Patient (patient portal sign-in): confirm the date of birth and e-mail or phone, and get the earlier appointments with results; 404 patient_matching_error when none',
        params: BookingKeyParamsSchema,
        body: PatientMatchRequestSchema,
        response: { 200: PatientMatchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = patientSessionOf(request);
      return reply.headers(NO_STORE).send(await results.patientMatch(session.bookingKey, request.body, { shared: session.shared }));
    },
  );
}

/** The patient's earlier results and their PDFs. */
function registerResultHistoryRoutes(app: FastifyInstance, results: PatientResultsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['results'];

  api.get(
    '/api/results/:bookingKey/history',
    {
      config: { access: 'results-session' },
      schema: {
        tags,
        summary:
          "Patient (results sign-in): the earlier appointments with results of the signed-in booking's own patient, newest exam first (the sign-in proved who they are)",
        params: BookingKeyParamsSchema,
        response: { 200: PatientMatchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const reader = readerOf(request);
      return reply.headers(NO_STORE).send(await results.history(request.params.bookingKey, reader));
    },
  );

  api.get(
    '/api/results/:bookingKey/history/:resultId/report.pdf',
    reportPdfRoute(
      'results-session',
      resultPageOf(true),
    )({
      tags,
      summary: "Patient (results sign-in): a released report of the patient's history as a PDF",
      params: HistoryReportParamsSchema,
      querystring: ReportPdfQuerySchema,
      response: errors,
    }),
    async (request, reply) => {
      const reader = readerOf(request);
      const { bookingKey, resultId } = request.params;
      return sendReportPdf(reply, request.query.download, (disposition) => results.historyPdf(bookingKey, resultId, reader, disposition));
    },
  );
}

/** The image viewer link: where the images open, and the viewer address itself. */
function registerImageViewerRoutes(app: FastifyInstance, viewer: ImageViewerService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['results'];

  api.get(
    '/api/image_viewer',
    {
      config: { access: 'image-viewer-link' },
      schema: {
        tags,
        summary: 'Anyone holding an image viewer link (imsec): where the images open (ACTIVE), or EXPIRED with the deny page',
        querystring: ImageViewerQuerySchema,
        response: { 200: ImageViewerResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(NO_STORE).send(await viewer.open(request.query.input, request.query.repositorySource)),
  );

  api.post(
    '/api/image_viewer/direct',
    {
      config: { access: 'image-viewer-link' },
      schema: {
        tags,
        summary: 'Anyone holding a live image viewer link (imsec): the viewer address itself',
        body: ImageViewerDirectRequestSchema,
        response: { 200: ImageViewerDirectResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      // A signed-in person (the image-viewer sign-in) is named in the audit by their identity, not by the body's words.
      const session = await staffSessionIfAny(request);
      const externalUser = session !== null || request.body.username !== undefined || request.body.email !== undefined;
      const openedBy = session === null ? undefined : subjectRef(session.subject);
      return reply.headers(NO_STORE).send(await viewer.direct(request.body.input, { externalUser, openedBy }));
    },
  );
}
