import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppointmentBookingResponseSchema,
  AppointmentSlugParamsSchema,
  AutocompleteParamsSchema,
  AutocompleteQuerySchema,
  AutocompleteResponseSchema,
  BookingQuestionnairesQuerySchema,
  NewBookingKeyResponseSchema,
  OutcomeProcessingResultSchema,
  PendingQuestionnairesQuerySchema,
  PendingQuestionnairesResponseSchema,
  PostBookingAnswerRequestSchema,
  PostBookingAnswerResponseSchema,
  ProcessOutcomesRequestSchema,
  QuestionnaireBookingKeyParamsSchema,
  QuestionnaireListResponseSchema,
  ReKeyRequestSchema,
  ReKeyResponseSchema,
  SavedAnswerResponseSchema,
  TemporaryAnswerRequestSchema,
} from '@contract/api/questionnaires';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { refuseSession, requirePatientSession, signedInRoute } from '../patient-access/public';
import type { QuestionnairesService } from './service';
import { addressWindowLimit, type AddressWindowDeps } from '../../platform/address-window-limit';

/** Thin routes (docs/server.md#module-shape): schema from src-contract, session check, call the service. */

const errors = errorAnswers(400, 401, 404, 409, 503);
const noStore = { 'cache-control': 'no-store' };

/** New temporary keys per client address per window (each is a row; anyone may ask). */
export const KEYS_PER_WINDOW = 60;
export const KEY_WINDOW_MS = 10 * 60_000;

export function registerQuestionnaireRoutes(app: FastifyInstance, service: QuestionnairesService, limitDeps: AddressWindowDeps): void {
  registerBookingKeyRoutes(app, service, limitDeps);
  registerBeforeBookingRoutes(app, service);
  registerAppointmentQuestionnaireRoutes(app, service);
  registerBookingRequestQuestionnaireRoutes(app, service);
}

/** Temporary booking keys: the questionnaire answers of a booking not made yet are kept under one. */
function registerBookingKeyRoutes(app: FastifyInstance, service: QuestionnairesService, limitDeps: AddressWindowDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['questionnaires'];

  const issued = addressWindowLimit({
    kind: 'questionnaire_key',
    limit: KEYS_PER_WINDOW,
    windowMs: KEY_WINDOW_MS,
    message: 'Too many questionnaire sessions were started from here. Please wait a few minutes.',
    deps: limitDeps,
  });
  app.jobs.every(60_000, 'questionnaires.key-limit-sweep', () => issued.sweep());

  api.post(
    '/api/questionnaires/booking-keys',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A new temporary booking key to collect answers under before the booking exists',
        response: { 201: NewBookingKeyResponseSchema, ...errors, 429: ApiErrorBodySchema },
      },
    },
    async (request, reply) => {
      await issued.take(request.ip);
      return reply
        .code(201)
        .headers(noStore)
        .send(await service.newBookingKey());
    },
  );
}

/** Before booking: the questionnaires, their answers under a temporary key, the outcomes and the autocomplete lists. */
function registerBeforeBookingRoutes(app: FastifyInstance, service: QuestionnairesService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['questionnaires'];

  api.get(
    '/api/questionnaires',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Booking-time questionnaires for the chosen exams, with which are answered',
        querystring: BookingQuestionnairesQuerySchema,
        response: { 200: QuestionnaireListResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.headers(noStore).send(await service.bookingQuestionnaires(request.query.bookingKey, request.query.exams)),
  );

  api.post(
    '/api/questionnaires/temporary-answers',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Save (replace) a temporary answer under the booking key',
        body: TemporaryAnswerRequestSchema,
        response: { 200: SavedAnswerResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await service.saveTemporaryAnswer(request.body)),
  );

  api.post(
    '/api/questionnaires/re-key',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Move temporary answers to a fresh booking key',
        body: ReKeyRequestSchema,
        response: { 200: ReKeyResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await service.reKey(request.body.oldBookingKey, request.body.newBookingKey)),
  );

  api.post(
    '/api/questionnaires/outcomes',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Evaluate the outcomes of the stored temporary answers',
        body: ProcessOutcomesRequestSchema,
        response: { 200: OutcomeProcessingResultSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await service.processOutcomes(request.body.bookingKey, request.body.exams)),
  );

  api.get(
    '/api/questionnaires/autocomplete/:source',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Suggestions for an autocomplete question (from 3 characters)',
        params: AutocompleteParamsSchema,
        querystring: AutocompleteQuerySchema,
        response: { 200: AutocompleteResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.headers({ 'cache-control': 'public, max-age=300' }).send(await service.autocomplete(request.params.source, request.query.q)),
  );
}

/** After booking: the appointment booking's questionnaires, its answers and its pain score. */
function registerAppointmentQuestionnaireRoutes(app: FastifyInstance, service: QuestionnairesService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['questionnaires'];

  // Patient session APPOINTMENT of the booking the appointment belongs to: anyone else (no
  // session, another booking's session) gets the same 401 whether the id exists or not, so an
  // appointment id never turns into a booking key for someone who cannot already open it.
  api.get(
    '/api/questionnaires/appointment-slugs/:appointmentSlug',
    {
      config: { access: 'appointment-session' },
      schema: {
        tags,
        summary: 'The booking key of an appointment (for /q?appointmentSlug=); only for the signed-in patient of that booking',
        params: AppointmentSlugParamsSchema,
        response: { 200: AppointmentBookingResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const bookingKey = await service.appointmentBookingKey(request.params.appointmentSlug);
      if (bookingKey === null) throw await refuseSession(request, { reason: 'unknown_appointment' });
      await requirePatientSession(request, { bookingKey, type: 'APPOINTMENT' });
      return reply.headers(noStore).send({ bookingKey });
    },
  );

  registerSignedInBookingRoutes(app, {
    type: 'APPOINTMENT',
    path: '/api/questionnaires/appointments/:bookingKey',
    pending: { summary: 'Questionnaires pending for an appointment booking, and its answers', load: service.appointmentQuestionnaires },
    answers: [
      {
        name: 'answers',
        summary: 'Answer a questionnaire for the appointment (a cancel questionnaire cancels)',
        save: service.saveAppointmentAnswer,
      },
      { name: 'pain-score', summary: 'Save a pain score for the booking', save: service.savePainScore },
    ],
  });
}

/** After asking: the booking request's questionnaires and its answers. */
function registerBookingRequestQuestionnaireRoutes(app: FastifyInstance, service: QuestionnairesService): void {
  registerSignedInBookingRoutes(app, {
    type: 'BOOKING_REQUEST',
    path: '/api/questionnaires/booking-requests/:bookingKey',
    pending: { summary: 'Questionnaires pending for a booking request, and its answers', load: service.bookingRequestQuestionnaires },
    answers: [
      { name: 'answers', summary: 'Answer a questionnaire for the booking request (protocol)', save: service.saveBookingRequestAnswer },
    ],
  });
}

/** The routes of a booking the patient is signed in to (an appointment or a booking request): what is pending, and each kind of answer. */
interface SignedInBookingRoutes {
  type: 'APPOINTMENT' | 'BOOKING_REQUEST';
  /** GET: the pending questionnaires; POST `${path}/${answer.name}`: save an answer. */
  path: string;
  pending: { summary: string; load: QuestionnairesService['appointmentQuestionnaires'] };
  answers: { name: string; summary: string; save: QuestionnairesService['saveAppointmentAnswer'] }[];
}

function registerSignedInBookingRoutes(app: FastifyInstance, routes: SignedInBookingRoutes): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = signedInRoute(routes.type, ['questionnaires']);
  const params = QuestionnaireBookingKeyParamsSchema;

  api.get(
    routes.path,
    signedIn({
      summary: routes.pending.summary,
      params,
      querystring: PendingQuestionnairesQuerySchema,
      response: { 200: PendingQuestionnairesResponseSchema, ...errors },
    }),
    async (request, reply) => reply.headers(noStore).send(await routes.pending.load(request.params.bookingKey, request.query.types)),
  );
  for (const answer of routes.answers)
    api.post(
      `${routes.path}/${answer.name}`,
      signedIn({
        summary: answer.summary,
        params,
        body: PostBookingAnswerRequestSchema,
        response: { 200: PostBookingAnswerResponseSchema, ...errors },
      }),
      async (request, reply) => reply.headers(noStore).send(await answer.save(request.params.bookingKey, request.body)),
    );
}
