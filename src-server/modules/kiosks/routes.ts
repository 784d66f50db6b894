import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CheckInParamsSchema, CheckInStatusSchema } from '@contract/api/check-in';
import {
  CheckInIdentityRequestSchema,
  CheckInIdentityResponseSchema,
  EnrollmentCodeSchema,
  EnrollRequestSchema,
  KIOSK_TOKEN_COOKIE,
  KioskHeartbeatSchema,
  KioskIdentitySchema,
  KioskIdParamsSchema,
  KioskListSchema,
  KioskSchema,
  NewKioskSchema,
} from '@contract/api/kiosks';
import { errorAnswers } from '../../platform/errors';
import { sendCheckInAccepted } from '../check-in/public';
import { bookingSessionCheck } from '../patient-access/public';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import { kioskOf, requireKiosk } from './guard';
import type { KiosksService } from './service';

/**
 * Thin routes for kiosks (src-contract/api/kiosks.ts): the staff kiosk page's calls (kiosk
 * administrators and admins), enrollment (anyone holding a code), and the kiosk's own calls (the
 * kiosk token; checking in also needs the patient's APPOINTMENT session).
 */

const errors = errorAnswers(400, 401, 403, 404, 409, 429);
const NO_STORE = { 'cache-control': 'no-store' };
/** The kiosk's token lives as long as the kiosk (revoked on the server); the date the spec gives the kiosk's cookies. */
const KIOSK_COOKIE_EXPIRES = 'Tue, 31 Dec 2030 23:59:59 GMT';

export function kioskTokenCookie(token: string): string {
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) throw new Error('kioskTokenCookie: the token must be base64url');
  return `${KIOSK_TOKEN_COOKIE}=${token}; Path=/; Expires=${KIOSK_COOKIE_EXPIRES}; HttpOnly; Secure; SameSite=Strict`;
}

export function registerKioskRoutes(
  app: FastifyInstance,
  service: KiosksService,
  kioskCheckIn: (bookingKey: string, appointmentId: string, kioskName: string) => Promise<z.infer<typeof CheckInStatusSchema>>,
): void {
  // A kiosk carries its token; a patient at a kiosk also their APPOINTMENT session (the checks, route-access.ts).
  const kioskCheck = requireKiosk(service);
  const appointmentSession = bookingSessionCheck('APPOINTMENT');
  app.defineAccessCheck('kiosk-token', kioskCheck);
  app.defineAccessCheck('kiosk-and-appointment-session', async (request) => {
    await kioskCheck(request);
    await appointmentSession(request);
  });
  registerKioskAdminRoutes(app, service);
  registerKioskDeviceRoutes(app, service, kioskCheckIn);
}

/** Kiosk administrators add kiosks, give them enrolment codes and revoke them. */
function registerKioskAdminRoutes(app: FastifyInstance, service: KiosksService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const kioskAdmin = staffRoute(['kioskAdmin', 'admin'], ['kiosks']);
  const staffRef = (request: Parameters<typeof staffSessionOf>[0]) => subjectRef(staffSessionOf(request).subject);

  api.get(
    '/api/staff/kiosks',
    kioskAdmin({ summary: 'The kiosks, by clinic, with their state', response: { 200: KioskListSchema, ...errors } }),
    async (_request, reply) => reply.headers(NO_STORE).send(await service.list()),
  );

  api.post(
    '/api/staff/kiosks',
    kioskAdmin({
      summary: 'Add a kiosk; answers its one-time enrollment code (shown once, valid 24 hours)',
      body: NewKioskSchema,
      response: { 201: EnrollmentCodeSchema, ...errors },
    }),
    async (request, reply) =>
      reply
        .code(201)
        .headers(NO_STORE)
        .send(await service.create(request.body, staffRef(request))),
  );

  api.post(
    '/api/staff/kiosks/:kioskId/enrollment-code',
    kioskAdmin({
      summary: 'A new one-time enrollment code for the kiosk (earlier unused codes stop working)',
      params: KioskIdParamsSchema,
      response: { 201: EnrollmentCodeSchema, ...errors },
    }),
    async (request, reply) =>
      reply
        .code(201)
        .headers(NO_STORE)
        .send(await service.newCode(request.params.kioskId, staffRef(request))),
  );

  api.post(
    '/api/staff/kiosks/:kioskId/revoke',
    kioskAdmin({
      summary: 'Revoke the kiosk: its token stops working at once',
      params: KioskIdParamsSchema,
      response: { 200: KioskSchema, ...errors },
    }),
    async (request, reply) => reply.headers(NO_STORE).send(await service.revoke(request.params.kioskId, staffRef(request))),
  );
}

/** A kiosk enrols with its code, reports that it is alive, and checks patients in. */
function registerKioskDeviceRoutes(
  app: FastifyInstance,
  service: KiosksService,
  kioskCheckIn: (bookingKey: string, appointmentId: string, kioskName: string) => Promise<z.infer<typeof CheckInStatusSchema>>,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/kiosk/enroll',
    {
      config: { access: 'public' },
      schema: {
        tags: ['kiosks'],
        summary: "Enroll this kiosk with a one-time code: sets the kiosk's token cookie (HttpOnly)",
        body: EnrollRequestSchema,
        response: { 200: KioskIdentitySchema, ...errors },
      },
    },
    async (request, reply) => {
      const enrolled = await service.enroll(request.body.code, request.ip);
      return reply.headers(NO_STORE).header('set-cookie', kioskTokenCookie(enrolled.token)).send(enrolled.identity);
    },
  );

  api.get(
    '/api/kiosk/me',
    {
      config: { access: 'kiosk-token' },
      schema: {
        tags: ['kiosks'],
        summary: 'This kiosk: its name and clinic (never its token)',
        response: { 200: KioskIdentitySchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(NO_STORE).send(service.identityOf(kioskOf(request))),
  );

  api.post(
    '/api/kiosk/heartbeat',
    {
      config: { access: 'kiosk-token' },
      schema: {
        tags: ['kiosks'],
        summary: "The kiosk app's heartbeat every minute: version, uptime, last crash, last patient activity (a time only), last offline",
        body: KioskHeartbeatSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.heartbeat(kioskOf(request), request.body);
      return reply.code(204).headers(NO_STORE).send(null);
    },
  );

  api.post(
    '/api/kiosk/check-in/identity',
    {
      config: { access: 'kiosk-token' },
      schema: {
        tags: ['kiosks'],
        summary:
          "Today's appointments for a last name, or a scanned booking code's key, and date of birth (the check-in identity check); limited per kiosk and per person",
        body: CheckInIdentityRequestSchema,
        response: { 200: CheckInIdentityResponseSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(NO_STORE).send(await service.identity(kioskOf(request), request.body)),
  );

  api.post(
    '/api/kiosk/check-in/:bookingKey/:appointmentSlug',
    {
      config: { access: 'kiosk-and-appointment-session' },
      schema: {
        tags: ['kiosks'],
        summary: 'Check in at the kiosk (the patient confirmed after the one-time code); poll the check-in status until checked in',
        params: CheckInParamsSchema,
        response: { 202: CheckInStatusSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendCheckInAccepted(reply, await kioskCheckIn(request.params.bookingKey, request.params.appointmentSlug, kioskOf(request).name)),
  );
}
