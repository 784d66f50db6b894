import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AppointmentCreateRequestSchema,
  AppointmentCreateResponseSchema,
  AvailabilityQuerySchema,
  AvailabilityResponseSchema,
  BookingRequestCreateResponseSchema,
  BookingRequestCreateSchema,
  BookingSettingsSchema,
  CatalogueSchema,
  ClinicsQuerySchema,
  ClinicsResponseSchema,
  ExamListSchema,
  ExamSearchQuerySchema,
  HoldParamsSchema,
  HoldRequestSchema,
  HoldResponseSchema,
  IdempotencyHeadersSchema,
  MonthQuerySchema,
  MonthResponseSchema,
  PostalCodeLocationSchema,
  PostcodeParamsSchema,
  WalkInExamListSchema,
  WalkInExamQuerySchema,
} from '@contract/api/booking';
import { BookingFormDetailsSchema } from '@contract/api/booking-form-details';
import { ApiErrorBodySchema } from '@contract/errors';
import { PUBLIC_COMPRESSION } from '../../platform/compression';
import { errorAnswers, isAppError } from '../../platform/errors';
import { bookingCaller, staffBooker } from './booking-caller';
import { createBookingMetrics } from './booking-metrics';
import { bookingClient, type BookingClient } from './booking-limits';
import type { BookingService } from './service';

/** Thin routes (docs/server.md#module-shape): schema from src-contract, call the service. */

const errors = errorAnswers(400, 503);
const writeErrors = { ...errors, 409: ApiErrorBodySchema, 422: ApiErrorBodySchema };
/** Holds and bookings are limited per client and contact (docs/rules/booking.md#booking-limits). */
const limitedErrors = { ...writeErrors, 403: ApiErrorBodySchema, 429: ApiErrorBodySchema };

/**
 * Runs a limited write (the error handler in app.ts adds Retry-After to its 429). Refusals by the booking limits go
 * to the audit log through the capped security audit: a limit reached, and an answer that was
 * sent but not accepted (a first request without one is the normal way to be asked, not audited).
 */
async function limited<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  run: (client: BookingClient) => Promise<T>,
  staff = false,
): Promise<T> {
  const client: BookingClient = { ...bookingClient(request), staff };
  try {
    return await run(client);
  } catch (error) {
    if (isAppError(error) && error.statusCode === 429) await app.securityAudit.refused(request, { reason: 'booking_limit_reached' });
    if (isAppError(error) && error.code === 'captcha_required' && client.captcha !== undefined) {
      await app.securityAudit.refused(request, { reason: 'captcha_answer_refused' });
    }
    throw error;
  }
}

/**
 * The availability answers are built by our own typed code and can be large (a week of 50
 * clinics is thousands of slots): serialise them with plain JSON.stringify instead of validating
 * every slot again on the way out. The schema still documents the route in /api/docs.
 */
const plainJson = (): ((data: unknown) => string) => (data) => JSON.stringify(data);

/**
 * Sends JSON the service already spelled out (the availability answer is assembled from cached
 * per-day fragments). A string payload skips the serializer; the route's schema still documents
 * the object it contains.
 */
function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.header('cache-control', 'no-store').header('content-type', 'application/json; charset=utf-8').send(text);
}

export function registerBookingRoutes(app: FastifyInstance, service: BookingService): void {
  registerCatalogueRoutes(app, service);
  registerPlaceAndTimeRoutes(app, service);
  registerHoldRoutes(app, service);
  registerBookingWriteRoutes(app, service);
}

/** The exam picker and the booking form: the catalogue, exams, settings, form details and walk-in exams. */
function registerCatalogueRoutes(app: FastifyInstance, service: BookingService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['booking'];

  api.get(
    '/api/booking/catalogue',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags,
        summary: 'Modalities, body parts and exams for the exam picker',
        response: { 200: CatalogueSchema, 503: ApiErrorBodySchema },
      },
    },
    () => service.catalogue(),
  );

  api.get(
    '/api/booking/exams',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Exams by name (case-insensitive), modality and body part',
        querystring: ExamSearchQuerySchema,
        response: { 200: ExamListSchema, ...errors },
      },
    },
    (request) => service.searchExams(request.query),
  );

  api.get(
    '/api/booking/settings',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Default location, maximum distance, lead time, horizon and hold time',
        response: { 200: BookingSettingsSchema, 503: ApiErrorBodySchema },
      },
    },
    () => service.settings(),
  );

  api.get(
    '/api/booking/form-details',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "The booking form's details: the provider's insurance types and ethnicity answers, and which questions are asked or required",
        response: { 200: BookingFormDetailsSchema, 503: ApiErrorBodySchema },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(await service.formDetails()),
  );

  api.get(
    '/api/booking/walk-in-exams',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Walk-in exams (no booked time), optionally for one modality (id or slug)',
        querystring: WalkInExamQuerySchema,
        response: { 200: WalkInExamListSchema, ...errors },
      },
    },
    (request) => service.walkInExams(request.query.modality),
  );
}

/** Where and when: postcodes, clinics and the free times. */
function registerPlaceAndTimeRoutes(app: FastifyInstance, service: BookingService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['booking'];

  api.get(
    '/api/booking/postcodes/:postcode',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Where an Australian postcode is (the postcode locator)',
        params: PostcodeParamsSchema,
        response: { 200: PostalCodeLocationSchema, 404: ApiErrorBodySchema, ...errors },
      },
    },
    (request) => service.postcode(request.params.postcode),
  );

  api.get(
    '/api/booking/clinics',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags,
        summary: 'Clinics offering every chosen exam, nearest first, with the next free time',
        querystring: ClinicsQuerySchema,
        response: { 200: ClinicsResponseSchema, ...errors },
      },
    },
    (request) => service.clinics(request.query),
  );

  api.get(
    '/api/booking/availability',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Free start times per clinic and local day',
        querystring: AvailabilityQuerySchema,
        response: { 200: AvailabilityResponseSchema, ...errors },
      },
      serializerCompiler: plainJson,
    },
    async (request, reply) => {
      return sendJsonText(reply, await service.availabilityJson(request.query));
    },
  );

  api.get(
    '/api/booking/availability/month',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Which days of a month have a free time at any of the clinics',
        querystring: MonthQuerySchema,
        response: { 200: MonthResponseSchema, ...errors },
      },
      serializerCompiler: plainJson,
    },
    async (request, reply) => {
      const body = await service.month(request.query);
      return reply.header('cache-control', 'no-store').send(body);
    },
  );
}

/** A time held while the patient fills in the form, and let go. */
function registerHoldRoutes(app: FastifyInstance, service: BookingService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['booking'];

  api.post(
    '/api/booking/holds',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Hold a time while the patient fills in details (expires after holdMinutes). Anyone may call it; ' +
          'past the daily limits per client a solved X-Captcha answer is needed (403 captcha_required), then 429',
        body: HoldRequestSchema,
        response: { 201: HoldResponseSchema, ...limitedErrors },
      },
    },
    async (request, reply) => {
      // A staff member picking times for patients is not limited (docs/rules/booking.md#staff-bookings).
      const staff = (await staffBooker(request)) !== null;
      return reply.code(201).send(await limited(app, request, (client) => service.createHold(request.body, client), staff));
    },
  );

  api.delete(
    '/api/booking/holds/:holdId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Release a hold (answers 204 also when it is already gone)',
        params: HoldParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.releaseHold(request.params.holdId);
      return reply.code(204).send(null);
    },
  );
}

/** The booking itself: an appointment, or a request the clinic answers. */
function registerBookingWriteRoutes(app: FastifyInstance, service: BookingService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['booking'];
  // portal_bookings_total on /metrics: each answer by its outcome (booking-metrics.ts).
  const counted = createBookingMetrics(app.metrics.registry);

  api.post(
    '/api/booking/appointments',
    {
      config: { access: 'public' },
      onResponse: counted.counter('appointment'),
      schema: {
        tags,
        summary:
          'Book the exams at a time (Idempotency-Key header required). Anyone may call it; past the daily limits ' +
          'per client and contact a solved X-Captcha answer is needed (403 captcha_required), then 429. staffBooking ' +
          'and pending are honoured for a staff session with the staff or admin role only (then not limited)',
        headers: IdempotencyHeadersSchema,
        body: AppointmentCreateRequestSchema,
        response: { 201: AppointmentCreateResponseSchema, ...limitedErrors },
      },
    },
    async (request, reply) => {
      // staffBooking is honoured for a staff session with the role only (booking-caller.ts).
      const caller = await bookingCaller(request, await app.securityAudit.clientRef(request), request.body);
      const created = await limited(
        app,
        request,
        (client) => service.createAppointment(request.headers['idempotency-key'], request.body, caller, client),
        caller.kind === 'staff',
      );
      // This browser may read the confirmation back, reloaded, without signing in (docs/rules/booking.md#confirmation).
      reply.header('set-cookie', await service.receipts.issue(created.bookingKey));
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  api.post(
    '/api/booking/booking-requests',
    {
      config: { access: 'public' },
      onResponse: counted.counter('booking_request'),
      schema: {
        tags,
        summary:
          'Booking requests for enquiry-only exams (Idempotency-Key header required). Anyone may call it; past the ' +
          'daily limits per client and contact a solved X-Captcha answer is needed (403 captcha_required), then 429',
        headers: IdempotencyHeadersSchema,
        body: BookingRequestCreateSchema,
        response: { 201: BookingRequestCreateResponseSchema, ...limitedErrors },
      },
    },
    async (request, reply) => {
      const created = await limited(app, request, (client) =>
        service.createBookingRequest(request.headers['idempotency-key'], request.body, client),
      );
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );
}
