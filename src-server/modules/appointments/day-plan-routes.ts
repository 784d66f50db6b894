import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BookingKeyParamsSchema } from '@contract/api/appointments';
import { DayPlanSchema } from '@contract/api/day-plan';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { errorAnswers } from '../../platform/errors';
import { signedInRoute } from '../patient-access/public';
import { dayPlanOf } from './day-plan-repository';

/**
 * The day planned before arrival (docs/rules/day-plan.md), read by the booking's patient like its
 * other pages (the APPOINTMENT session of this booking). Times move with the clock: never cached.
 */
export function registerDayPlanRoutes(app: FastifyInstance, deps: { db: Queryable; clock: Clock }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = signedInRoute('APPOINTMENT', ['appointments']);

  api.get(
    '/api/secured/appointments/:bookingKey/day-plan',
    signedIn({
      summary: 'The day planned before arrival: timed steps from the preparation, missing documents, address, map link and parking',
      params: BookingKeyParamsSchema,
      response: { 200: DayPlanSchema, ...errorAnswers(400, 401, 404, 503) },
    }),
    async (request, reply) =>
      reply.headers({ 'cache-control': 'no-store' }).send(await dayPlanOf(deps.db, request.params.bookingKey, deps.clock.now())),
  );
}
