import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppointmentSummarySchema,
  BookingKeyParamsSchema,
  CancelRequestSchema,
  CanChangeQuerySchema,
  CanChangeResponseSchema,
  ConsentFormParamsSchema,
  ConsentFormSchema,
  ConsentFormsResponseSchema,
  DetailsChangeRequestSchema,
  DetailsChangeResponseSchema,
  RequestRescheduleSchema,
  RescheduleRequestSchema,
} from '@contract/api/appointments';
import { IdempotencyHeadersSchema } from '@contract/api/booking';
import { ApiErrorBodySchema } from '@contract/errors';
import { SignConsentFormSchema } from '@contract/api/appointments';
import { errorAnswers } from '../../platform/errors';
import { signedInRoute } from '../patient-access/public';
import { cancelQuestionnaireRequired } from './change-rules';
import { registerConfirmationRoutes } from './confirmation-routes';
import type { AppointmentsService } from './service';

/** Thin routes (docs/server.md): session check, schema from src-contract, call the service. */

const readErrors = errorAnswers(400, 401, 404, 503);
const writeErrors = { ...readErrors, 409: ApiErrorBodySchema, 422: ApiErrorBodySchema, 429: ApiErrorBodySchema };

const tags = ['appointments'];
const noStore = { 'cache-control': 'no-store' };

export function registerAppointmentRoutes(app: FastifyInstance, service: AppointmentsService): void {
  // Read by the browser that booked too (its receipt), not only by the signed-in patient.
  registerConfirmationRoutes(app, service);
  registerBookingChangeRoutes(app, service);
  registerBookingDetailRoutes(app, service);
}

/** The booking as its patient sees it, and the changes they make: cancel, move, or ask the clinic to move it. */
function registerBookingChangeRoutes(app: FastifyInstance, service: AppointmentsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = signedInRoute('APPOINTMENT', tags);

  api.get(
    '/api/appointments/:bookingKey',
    signedIn({
      summary: 'The booking: its appointments, clinic, patient and what the patient may do',
      params: BookingKeyParamsSchema,
      response: { 200: AppointmentSummarySchema, ...readErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.summary(request.params.bookingKey)),
  );

  api.get(
    '/api/appointments/:bookingKey/can-change',
    signedIn({
      summary: 'Whether the patient may cancel or reschedule now, and why not',
      params: BookingKeyParamsSchema,
      querystring: CanChangeQuerySchema,
      response: { 200: CanChangeResponseSchema, ...readErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.canChange(request.params.bookingKey, request.query.action)),
  );

  api.post(
    '/api/appointments/:bookingKey/cancel',
    signedIn({
      summary: 'Cancel the booking (not within priorMinutes of the start)',
      params: BookingKeyParamsSchema,
      body: CancelRequestSchema,
      response: { 200: AppointmentSummarySchema, ...writeErrors },
    }),
    async (request, reply) => {
      const { bookingKey } = request.params;
      // The questionnaire's completion cancels (questionnaires/service.ts calls service.cancel itself).
      if ((await service.summary(bookingKey)).cancelQuestionnaireRequired) throw cancelQuestionnaireRequired();
      return reply.headers(noStore).send(await service.cancel(bookingKey, request.body));
    },
  );

  api.post(
    '/api/appointments/:bookingKey/reschedule',
    signedIn({
      summary: 'Move the booking to another time in one transaction (Idempotency-Key header required)',
      params: BookingKeyParamsSchema,
      headers: IdempotencyHeadersSchema,
      body: RescheduleRequestSchema,
      response: { 200: AppointmentSummarySchema, ...writeErrors },
    }),
    async (request, reply) =>
      reply.headers(noStore).send(await service.reschedule(request.params.bookingKey, request.headers['idempotency-key'], request.body)),
  );

  api.post(
    '/api/appointments/:bookingKey/request-reschedule',
    signedIn({
      summary: 'Ask the clinic to reschedule (status REQUEST_RESCHEDULE)',
      params: BookingKeyParamsSchema,
      body: RequestRescheduleSchema.nullish(),
      response: { 200: AppointmentSummarySchema, ...writeErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.requestReschedule(request.params.bookingKey, request.body ?? {})),
  );
}

/** Confirming, the consent forms, a change of details asked for, and the provider's mails stopped. */
function registerBookingDetailRoutes(app: FastifyInstance, service: AppointmentsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = signedInRoute('APPOINTMENT', tags);

  api.post(
    '/api/appointments/:bookingKey/confirm',
    signedIn({
      summary: 'Confirm the appointment (status CONFIRMED)',
      params: BookingKeyParamsSchema,
      response: { 200: AppointmentSummarySchema, ...writeErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.confirm(request.params.bookingKey)),
  );

  api.get(
    '/api/appointments/:bookingKey/consent-forms',
    signedIn({
      summary: 'Consent forms for the booking, with its signatures',
      params: BookingKeyParamsSchema,
      response: { 200: ConsentFormsResponseSchema, ...readErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.consentForms(request.params.bookingKey)),
  );

  api.put(
    '/api/appointments/:bookingKey/consent-forms/:id',
    signedIn({
      summary: 'Sign a consent form',
      params: ConsentFormParamsSchema,
      body: SignConsentFormSchema,
      response: { 200: ConsentFormSchema, ...writeErrors },
    }),
    async (request, reply) =>
      reply.headers(noStore).send(await service.signConsentForm(request.params.bookingKey, request.params.id, request.body)),
  );

  api.post(
    '/api/appointments/:bookingKey/details-change-request',
    signedIn({
      summary: 'Ask the clinic to correct the patient details',
      params: BookingKeyParamsSchema,
      body: DetailsChangeRequestSchema,
      response: { 201: DetailsChangeResponseSchema, ...writeErrors },
    }),
    async (request, reply) =>
      reply
        .code(201)
        .headers(noStore)
        .send(await service.detailsChangeRequest(request.params.bookingKey, request.body)),
  );

  api.post(
    '/api/appointments/:bookingKey/unsubscribe',
    signedIn({
      summary: "Stop the provider's e-mails for this booking's patient",
      params: BookingKeyParamsSchema,
      response: { 200: AppointmentSummarySchema, ...writeErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.unsubscribe(request.params.bookingKey)),
  );
}
