import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  StaffConsentsParamsSchema,
  StaffConsentsSchema,
  StaffSignatureParamsSchema,
  type StaffConsents,
} from '@contract/api/staff-consents';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { errorAnswers, notFound } from '../../platform/errors';
import { bookingKeyRef } from '../../platform/security-audit';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import { currentRows } from './change-rules';
import { createAppointmentsRepository } from './repository';

/**
 * What staff read of a booking's consent signatures (docs/rules/appointments.md#consent-forms):
 * the forms with the typed name, the time and whether one was drawn, and the drawn PNG. Roles
 * staff and admin: the people who handle appointments at the desk; a referrer (another
 * practice's doctor) and a kioskAdmin (IT) have no business reading a patient's signature.
 * Every read is audited naming the person, never the booking key in clear.
 */

export const CONSENT_READ_ROLES = ['staff', 'admin'] as const;

const errors = errorAnswers(400, 401, 403, 404);
const NO_STORE = { 'cache-control': 'no-store' };

export function createStaffConsents(db: Database, clock: Clock) {
  const repository = createAppointmentsRepository(db);

  async function audit(actor: string, action: string, bookingKey: string, details: Record<string, unknown>): Promise<void> {
    await repository.audit({ actor, action, subjectType: 'booking_key', subjectId: bookingKeyRef(bookingKey), details, now: clock.now() });
  }

  return {
    async list(bookingKey: string, actor: string): Promise<StaffConsents> {
      const rows = currentRows(await repository.bookingRows(bookingKey));
      if (rows.length === 0) throw notFound('No booking has this key.');
      const forms = await repository.consentForms(bookingKey, [...new Set(rows.map((row) => row.modality_id))]);
      await audit(actor, 'consent_forms.read_by_staff', bookingKey, {});
      return {
        bookingKey,
        consents: forms.map((form) => ({
          id: form.id,
          title: form.title,
          signed: form.signed_name !== null,
          signedName: form.signed_name,
          signedAt: form.signed_ms === null ? null : new Date(form.signed_ms).toISOString(),
          drawn: form.drawn,
        })),
      };
    },

    /** The stored PNG; 404 when this booking has no drawn signature for the form. */
    async signature(bookingKey: string, formId: string, actor: string): Promise<Buffer> {
      const png = await repository.signaturePng(bookingKey, formId);
      if (png === null) throw notFound('This booking has no drawn signature for this consent form.');
      await audit(actor, 'consent_signature.read_by_staff', bookingKey, { form: formId });
      return png;
    },
  };
}

export function registerStaffConsentRoutes(app: FastifyInstance, consents: ReturnType<typeof createStaffConsents>): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staffOnly = staffRoute(CONSENT_READ_ROLES, ['appointments']);
  const actorOf = (request: Parameters<typeof staffSessionOf>[0]) => subjectRef(staffSessionOf(request).subject);

  api.get(
    '/api/staff/appointments/:bookingKey/consents',
    staffOnly({
      summary: "The booking's consent forms: signed name, time and whether a signature was drawn",
      params: StaffConsentsParamsSchema,
      response: { 200: StaffConsentsSchema, ...errors },
    }),
    async (request, reply) => reply.headers(NO_STORE).send(await consents.list(request.params.bookingKey, actorOf(request))),
  );

  api.get(
    '/api/staff/appointments/:bookingKey/consents/:formId/signature.png',
    staffOnly({
      summary: 'The signature drawn for a consent form (image/png)',
      params: StaffSignatureParamsSchema,
      produces: ['image/png'],
      response: errors,
    }),
    async (request, reply) => {
      const png = await consents.signature(request.params.bookingKey, request.params.formId, actorOf(request));
      // The bytes as stored: no JSON schema applies to this answer.
      return (reply as FastifyReply)
        .headers({
          ...NO_STORE,
          'content-type': 'image/png',
          'content-disposition': 'inline; filename="signature.png"',
          'x-content-type-options': 'nosniff',
        })
        .send(png);
    },
  );
}
