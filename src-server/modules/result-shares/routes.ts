import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookingKeyParamsSchema } from '@contract/api/appointments';
import {
  ShareListSchema,
  ShareParamsSchema,
  ShareRecordSchema,
  ShareRequestSchema,
  SHARED_RESULTS_PATH,
  SharedResultsSchema,
} from '@contract/api/result-shares';
import { ReportPdfQuerySchema } from '@contract/api/results';
import { errorAnswers } from '../../platform/errors';
import type { RefusalPage } from '../../platform/served-file';
import { patientSessionOf, sharedSessionOf } from '../patient-access/public';
import { reportPdfRoute, RESULTS_EXPIRED_URL, sendReportPdf } from '../results/public';
import type { ResultSharesService } from './service';

/**
 * Thin routes for sharing (docs/rules/results.md#sharing): the patient's share list, share and
 * revoke need the patient's own results session for the booking in the path (a contact's
 * session never passes it); the shared results need a contact's session whose share stands.
 */

const errors = errorAnswers(400, 401, 403, 404, 410, 429);
const NO_STORE = { 'cache-control': 'private, no-store' };

/**
 * A contact's PDF tab once the share no longer stands goes to the page saying so (as the shared
 * results page does); any other refusal to the shared results page, which signs the contact in again.
 */
const sharedRefusalPage: RefusalPage = ({ code }) => {
  if (code === 'share_revoked') return '/deny?revoked=true';
  if (code === 'share_expired') return RESULTS_EXPIRED_URL;
  return SHARED_RESULTS_PATH;
};

export function registerResultShareRoutes(app: FastifyInstance, shares: ResultSharesService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['results'];

  api.get(
    '/api/results/:bookingKey/shares',
    {
      config: { access: 'results-session' },
      schema: {
        tags,
        summary: 'Patient (results sign-in): their shares with dates, revocations and who opened them when',
        params: BookingKeyParamsSchema,
        response: { 200: ShareListSchema, ...errors },
      },
    },
    async (request, reply) => {
      return reply.headers(NO_STORE).send(await shares.list(request.params.bookingKey));
    },
  );

  api.post(
    '/api/results/:bookingKey/shares',
    {
      config: { access: 'results-session' },
      schema: {
        tags,
        summary: 'Patient (results sign-in): share the result (or, from the patient portal, the history) with a contact by e-mail or SMS',
        params: BookingKeyParamsSchema,
        body: ShareRequestSchema,
        response: { 201: ShareRecordSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = patientSessionOf(request);
      const created = await shares.create({ bookingKey: session.bookingKey, type: session.type }, request.body);
      return reply.code(201).headers(NO_STORE).send(created);
    },
  );

  api.post(
    '/api/results/:bookingKey/shares/:id/revoke',
    {
      config: { access: 'results-session' },
      schema: {
        tags,
        summary: "Patient (results sign-in): revoke a share; the contact's next request is refused",
        params: ShareParamsSchema,
        response: { 200: ShareRecordSchema, ...errors },
      },
    },
    async (request, reply) => {
      return reply.headers(NO_STORE).send(await shares.revoke(request.params.bookingKey, request.params.id));
    },
  );

  api.get(
    '/api/shared-results',
    {
      config: { access: 'shared-session' },
      schema: {
        tags,
        summary: 'A contact (shared sign-in): the shared result or history, read-only; 410 once revoked or expired',
        response: { 200: SharedResultsSchema, ...errors },
      },
    },
    async (request, reply) => {
      const session = sharedSessionOf(request);
      return reply.headers(NO_STORE).send(await shares.sharedResults(session));
    },
  );

  api.get(
    '/api/shared-results/:resultId/report.pdf',
    reportPdfRoute(
      'shared-session',
      sharedRefusalPage,
    )({
      tags,
      summary: 'A contact (shared sign-in): one shared report as a PDF, inline or (download=true) as an attachment',
      params: z.strictObject({ resultId: z.uuid() }),
      querystring: ReportPdfQuerySchema,
      response: errors,
    }),
    async (request, reply) => {
      const session = sharedSessionOf(request);
      return sendReportPdf(reply, request.query.download, () => shares.sharedPdf(session, request.params.resultId));
    },
  );
}
