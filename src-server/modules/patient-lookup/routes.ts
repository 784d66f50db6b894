import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PATIENT_LOOKUP_PATH, PatientLookupRequestSchema, PatientLookupResponseSchema } from '@contract/api/patient-lookup';
import { STAFF_BOOKING_ROLES } from '@contract/api/staff-access';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import type { PatientLookupService } from './service';

/** POST /api/staff/patient-lookup (docs/rules/booking.md#patient-lookup): staff who book for patients only. */
export function registerPatientLookupRoutes(app: FastifyInstance, service: PatientLookupService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const bookers = staffRoute(STAFF_BOOKING_ROLES, ['booking']);
  api.post(
    PATIENT_LOOKUP_PATH,
    bookers({
      summary: 'Finds patients who booked before by name and date of birth, phone or e-mail (staff; audited and limited)',
      body: PatientLookupRequestSchema,
      response: { 200: PatientLookupResponseSchema, ...errorAnswers(400, 401, 403, 429) },
    }),
    async (request, reply) => {
      const answer = await service.lookup(subjectRef(staffSessionOf(request).subject), request.body);
      // Personal data: never kept by a cache.
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
}
