import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { REFERRER_REPORTS_PATH, ReferrerReportsPageSchema, ReferrerReportsQuerySchema } from '@contract/api/referrer-reports';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf } from '../staff-access/public';
import type { ReferrerReportsService } from './service';

/**
 * Thin routes for the referring doctor's report list (docs/rules/referrers.md#referrer-report-list):
 * a staff session with the referrer role only; staff and admins have their own tools and no
 * provider number, so they are refused rather than shown an empty list.
 */

const errors = errorAnswers(400, 401, 403);
const NO_STORE = { 'cache-control': 'no-store' };

export function registerReferrerReportRoutes(app: FastifyInstance, service: ReferrerReportsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const referrerOnly = staffRoute(['referrer'], ['referrers']);

  api.get(
    REFERRER_REPORTS_PATH,
    referrerOnly({
      summary: "The signed-in referring doctor's patients' reports, newest first, 20 a page; search by patient name or accession number",
      querystring: ReferrerReportsQuerySchema,
      response: { 200: ReferrerReportsPageSchema, ...errors },
    }),
    async (request, reply) => reply.headers(NO_STORE).send(await service.list(staffSessionOf(request), request.query)),
  );
}
