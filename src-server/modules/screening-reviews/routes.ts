import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_BOOKING_ROLES } from '@contract/api/staff-access';
import {
  ScreeningReviewDecisionBodySchema,
  ScreeningReviewListSchema,
  ScreeningReviewParamsSchema,
  STAFF_SCREENING_REVIEWS_PATH,
} from '@contract/api/screening-reviews';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import type { ScreeningReviews } from './service';

const errors = errorAnswers(400, 401, 403, 503);

/** The radiographers' queue of held screenings (docs/rules/screening-review.md). */
export function registerScreeningReviewRoutes(app: FastifyInstance, service: ScreeningReviews): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Patients' details, screening answers and documents: staff and admins, as the booking tools.
  const reviewers = staffRoute(STAFF_BOOKING_ROLES, ['staff-screening-reviews']);

  api.get(
    STAFF_SCREENING_REVIEWS_PATH,
    reviewers({
      summary: 'The screenings waiting for review, the soonest to expire first, with answers and documents (staff, admin; audited)',
      response: { 200: ScreeningReviewListSchema, ...errors },
    }),
    async (request, reply) => {
      const list = await service.list(subjectRef(staffSessionOf(request).subject));
      return reply.header('cache-control', 'no-store').send(list);
    },
  );

  for (const decision of ['approve', 'decline'] as const) {
    api.post(
      `${STAFF_SCREENING_REVIEWS_PATH}/:reviewId/${decision}`,
      reviewers({
        summary:
          decision === 'approve'
            ? 'Approves a held screening: its appointments are booked at the same time and the patient is mailed (staff, admin; audited; 409 when decided)'
            : 'Declines a held screening with a note: its appointments are cancelled, the time freed, the patient mailed the note (staff, admin; audited; 409 when decided)',
        params: ScreeningReviewParamsSchema,
        body: ScreeningReviewDecisionBodySchema,
        response: { 204: z.null(), ...errors, 404: ApiErrorBodySchema, 409: ApiErrorBodySchema },
      }),
      async (request, reply) => {
        const session = staffSessionOf(request);
        const staff = { ref: subjectRef(session.subject), name: session.displayName ?? session.username };
        await (decision === 'approve' ? service.approve : service.decline)(staff, request.params.reviewId, request.body.note);
        return reply.code(204).send(null);
      },
    );
  }
}
