import type { JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { BookingRequestSummarySchema, bookingRequestChatServicePath, CHAT_SERVICE_MESSAGES } from '@contract/api/booking-requests';
import { STAFF_BOOKING_REQUESTS_PATH, StaffBookingRequestListSchema } from '@contract/api/staff-booking-requests';
import { backends } from '../../helpers/database';
import { cspDirective } from '../../helpers/csp';
import { useTestApp } from '../../helpers/test-app';
import { auditSince, signIn } from '../appointments/self-service-kit';
import { newClientAddress } from '../booking/booking-test-kit';
import { lastAuditId, setOtpRequired } from '../patient-access/sign-in-kit';
import { signedInStaff, STAFF_CLAIMS, useTestIdentityProvider } from '../staff-access/identity-kit';

// The provider's chat service reports its conversation about a booking request through the
// request's own page (docs/rules/chat.md#the-providers-chat-service): started sets the type CHAT;
// ended with the booking-complete message marks it booked by the chat service (handled in the
// staff queue), else sets the type back to PATIENT. Who may call is proven by
// tests/server/route-access.test.ts.

const CHLOE = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };
const HARRIET = { bookingKey: 'sJOROmG7Kksv3ga8UObC2A', dateOfBirth: '1962-09-08' };
const CHAT_SERVICE = {
  scriptUrl: 'https://chat.example-provider.test/messenger/v1/bootstrap.js',
  environment: 'prod-apse2',
  deploymentId: 'b6f3c1d2-4a5e-4f60-9b7a-0c1d2e3f4a5b',
};
const CHAT_ORIGIN = 'https://chat.example-provider.test';

const directive = cspDirective;

describe.each(backends())("the provider's chat service on %s", (backend) => {
  const provider = useTestIdentityProvider();
  const server = useTestApp({ backend, webRoot: true, identity: () => provider.options });
  beforeAll(() => setOtpRequired(server.db, false));

  async function setChatService(value: object | null): Promise<void> {
    await server.db.query(`update provider set integration_config = integration_config || jsonb_build_object('chatService', $1::jsonb)`, [
      JSON.stringify(value),
    ]);
    server.clock.advance(31_000); // past the header sources' cache lifetime
  }
  const typesOf = async (key: string) =>
    (await server.db.query<{ type: string }>('select type from booking_request where booking_key = $1 order by id', [key])).map(
      (row) => row.type,
    );
  const page = (url: string) => server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  it('refuses while the provider has no chat service (409), changing nothing', async () => {
    const chloe = await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST');
    const response = await chloe.post(bookingRequestChatServicePath(CHLOE.bookingKey), { event: 'started' });
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toMatchObject({ code: 'conflict', message: CHAT_SERVICE_MESSAGES.off });
    expect(await typesOf(CHLOE.bookingKey)).toEqual(['PATIENT']);
    expect(directive(await page('/'), 'script-src')).toEqual(["'self'"]);
  });

  it('puts the script origin in the CSP of patient pages only, and the settings in the start-up configuration', async () => {
    await setChatService(CHAT_SERVICE);
    for (const url of ['/', '/booking-requests/x']) {
      const response = await page(url);
      expect(directive(response, 'script-src'), url).toEqual(["'self'", CHAT_ORIGIN]);
      expect(directive(response, 'connect-src'), url).toEqual(["'self'", CHAT_ORIGIN]);
      expect(directive(response, 'frame-src'), url).toContain(CHAT_ORIGIN);
    }
    for (const url of ['/staff', '/kiosk', '/referrer-access']) {
      expect(String((await page(url)).headers['content-security-policy']), url).not.toContain(CHAT_ORIGIN);
    }
    const bootstrap = await server.app.inject({ method: 'GET', url: '/api/config/bootstrap' });
    expect(bootstrap.json<{ integration: { chatService: unknown } }>().integration.chatService).toEqual(CHAT_SERVICE);
  });

  it('takes a conversation that ends without booking back to the booking team (type PATIENT)', async () => {
    await setChatService(CHAT_SERVICE);
    const chloe = await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST');
    const since = await lastAuditId(server.db);
    const started = await chloe.post(bookingRequestChatServicePath(CHLOE.bookingKey), { event: 'started' });
    expect(started.statusCode, started.body).toBe(200);
    expect(BookingRequestSummarySchema.parse(started.json())).toMatchObject({ type: 'CHAT', bookedByChatService: false, status: 'BOOKED' });
    expect(await typesOf(CHLOE.bookingKey)).toEqual(['CHAT']);
    // Opening the chat again in the same conversation logs nothing more.
    expect((await chloe.post(bookingRequestChatServicePath(CHLOE.bookingKey), { event: 'started' })).statusCode).toBe(200);

    const staff = await signedInStaff(server.app, provider, STAFF_CLAIMS as JWTPayload, server.clock.now(), newClientAddress());
    const during = StaffBookingRequestListSchema.parse((await staff.request('GET', STAFF_BOOKING_REQUESTS_PATH)).json());
    expect(during.items.find((item) => item.bookingKey === CHLOE.bookingKey)).toMatchObject({ status: 'open', withChatService: true });

    const ended = await chloe.post(bookingRequestChatServicePath(CHLOE.bookingKey), { event: 'ended', bookingComplete: false });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(BookingRequestSummarySchema.parse(ended.json())).toMatchObject({ type: 'PATIENT', bookedByChatService: false });
    expect(await typesOf(CHLOE.bookingKey)).toEqual(['PATIENT']);
    const after = StaffBookingRequestListSchema.parse((await staff.request('GET', STAFF_BOOKING_REQUESTS_PATH)).json());
    expect(after.items.find((item) => item.bookingKey === CHLOE.bookingKey)).toMatchObject({ status: 'open', withChatService: false });
    const patientEvents = (await auditSince(server.db, since)).filter((row) => row.actor === 'patient');
    expect(patientEvents).toEqual([
      { actor: 'patient', action: 'booking_request.chat_started', details: {} },
      { actor: 'patient', action: 'booking_request.chat_ended', details: { bookingComplete: false } },
    ]);
  });

  it('marks the request booked by the chat service after the booking-complete message, for good', async () => {
    await setChatService(CHAT_SERVICE);
    const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
    expect((await harriet.post(bookingRequestChatServicePath(HARRIET.bookingKey), { event: 'started' })).statusCode).toBe(200);
    const ended = await harriet.post(bookingRequestChatServicePath(HARRIET.bookingKey), { event: 'ended', bookingComplete: true });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(BookingRequestSummarySchema.parse(ended.json())).toMatchObject({ type: 'CHAT', bookedByChatService: true, status: 'BOOKED' });
    const handling = await server.db.query<{ handled_by_ref: string; handled_by_name: string }>(
      'select handled_by_ref, handled_by_name from booking_request_handling where booking_key = $1',
      [HARRIET.bookingKey],
    );
    expect(handling).toEqual([{ handled_by_ref: 'chat-service', handled_by_name: 'Chat service' }]);

    const staff = await signedInStaff(server.app, provider, STAFF_CLAIMS as JWTPayload, server.clock.now(), newClientAddress());
    const list = StaffBookingRequestListSchema.parse((await staff.request('GET', STAFF_BOOKING_REQUESTS_PATH)).json());
    expect(list.items.find((item) => item.bookingKey === HARRIET.bookingKey)).toMatchObject({
      status: 'handled',
      handledBy: 'Chat service',
      withChatService: false,
    });

    // A later conversation, or a late disconnect, never un-books it.
    const since = await lastAuditId(server.db);
    for (const event of [{ event: 'started' }, { event: 'ended', bookingComplete: false }]) {
      const again = await harriet.post(bookingRequestChatServicePath(HARRIET.bookingKey), event);
      expect(again.statusCode).toBe(200);
      expect(BookingRequestSummarySchema.parse(again.json())).toMatchObject({ bookedByChatService: true });
    }
    expect(await typesOf(HARRIET.bookingKey)).toEqual(['CHAT', 'CHAT']);
    expect(await auditSince(server.db, since)).toEqual([]);
  });

  it('answers 400 for a bad event and 409 for a cancelled request, changing nothing', async () => {
    await setChatService(CHAT_SERVICE);
    const chloe = await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST');
    const before = await typesOf(CHLOE.bookingKey);
    for (const body of [
      {},
      { event: 'booked' },
      { event: 'ended' },
      { event: 'ended', bookingComplete: 'yes' },
      { event: 'started', bookingComplete: true },
      { event: 'started', type: 'PATIENT' },
    ]) {
      const response = await chloe.post(bookingRequestChatServicePath(CHLOE.bookingKey), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await typesOf(CHLOE.bookingKey)).toEqual(before);

    expect((await chloe.post(`/api/booking-requests/${CHLOE.bookingKey}/cancel`)).statusCode).toBe(200);
    const cancelled = await chloe.post(bookingRequestChatServicePath(CHLOE.bookingKey), { event: 'started' });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json()).toMatchObject({ message: CHAT_SERVICE_MESSAGES.cancelled });
    expect(await typesOf(CHLOE.bookingKey)).toEqual(before);
  });

  it("refuses another request's session and none (401)", async () => {
    await setChatService(CHAT_SERVICE);
    const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
    expect((await harriet.post(bookingRequestChatServicePath(CHLOE.bookingKey), { event: 'started' })).statusCode).toBe(401);
    const anonymous = await server.app.inject({
      method: 'POST',
      url: bookingRequestChatServicePath(CHLOE.bookingKey),
      payload: { event: 'ended', bookingComplete: true },
    });
    expect([401, 403]).toContain(anonymous.statusCode);
    expect(await server.db.query('select 1 from booking_request_handling where booking_key = $1', [CHLOE.bookingKey])).toEqual([]);
  });
});
