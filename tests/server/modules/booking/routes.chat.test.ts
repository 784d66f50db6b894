import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PREFERRED_TIMES, PREFERRED_TIMES_CHAT_ONLY, PREFERRED_TIMES_MESSAGE } from '@contract/api/booking';
import { CALLBACK_WINDOWS } from '@contract/api/callbacks';
import { createBookingRequestsService } from '../../../../src-server/modules/booking-requests/service';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { MINIMAL_PDF, multipart, send, temporaryBase } from '../attachments/attachments-kit';
import { countRows, newClientAddress, patient, requestBooking } from './booking-test-kit';

// Booking requests made in the chat assistant (docs/rules/chat.md#the-server): any exam of the
// catalogue, the preferred times and "any clinic" stored, missing screenings asked on the phone,
// the referral uploaded under a temporary key taken along; bad input is a 400 that stores nothing.

describe.each(backends())('chat booking requests on %s', (backend) => {
  const server = useTestApp({ backend });

  /** As the assistant sends it: no questionnaire answers, the chat channel, its own client address. */
  function chatRequest(body: Record<string, unknown>, address = newClientAddress()): Promise<LightMyRequestResponse> {
    return server.app.inject({
      method: 'POST',
      url: '/api/booking/booking-requests',
      headers: { 'idempotency-key': randomUUID() },
      remoteAddress: address,
      payload: body,
    });
  }

  const summaryOf = (bookingKey: string) => createBookingRequestsService({ db: server.db, clock: server.clock }).summary(bookingKey);

  it('the preferred times are the callback windows', () => {
    expect([...PREFERRED_TIMES]).toEqual([...CALLBACK_WINDOWS]);
  });

  it('accepts a bookable exam with its screening unanswered: stored as chat, times kept, screening by phone', async () => {
    const response = await chatRequest({
      channel: 'chat',
      preferredTimes: ['weekdayMorning', 'saturdayMorning'],
      exams: ['mri-knee'],
      patient: patient(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const { bookingKey, results } = response.json<{ bookingKey: string; results: Array<{ success: boolean }> }>();
    expect(results.map((result) => result.success)).toEqual([true]);
    const summary = await summaryOf(bookingKey);
    expect(summary).toMatchObject({
      channel: 'chat',
      preferredTimes: ['weekdayMorning', 'saturdayMorning'],
      screeningByPhone: true,
      bookingDetails: { clinicName: null },
    });
    const [row] = await server.db.query<{ channel: string; clinic_id: string | null }>(
      'select channel, clinic_id::text as clinic_id from booking_request where booking_key = $1',
      [bookingKey],
    );
    expect(row).toEqual({ channel: 'chat', clinic_id: null });
  });

  it('an exam without screening at a chosen clinic: no screening by phone, the clinic kept', async () => {
    const response = await chatRequest({
      channel: 'chat',
      preferredTimes: ['anyTime'],
      exams: ['us-abdomen'],
      clinicSlug: 'parramatta',
      patient: patient(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const summary = await summaryOf(response.json<{ bookingKey: string }>().bookingKey);
    expect(summary).toMatchObject({ channel: 'chat', preferredTimes: ['anyTime'], screeningByPhone: false });
    expect(summary.bookingDetails.clinicName).not.toBeNull();
  });

  it('takes the referral uploaded under the temporary key along', async () => {
    const address = newClientAddress();
    const keyResponse = await server.app.inject({
      method: 'POST',
      url: '/api/questionnaires/booking-keys',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      remoteAddress: address,
    });
    expect(keyResponse.statusCode).toBe(201);
    const key = keyResponse.json<{ bookingKey: string }>().bookingKey;
    const documents = await send(server.app, {}, 'GET', `${temporaryBase(key)}/response?changedExamSlugs=mri-knee`);
    const referralType = documents
      .json<{ documents: Array<{ documentTypeId: string; documentTypeCode: string }> }>()
      .documents.find((document) => document.documentTypeCode === 'REFERRAL');
    expect(referralType).toBeDefined();
    const uploaded = await send(
      server.app,
      {},
      'POST',
      temporaryBase(key),
      multipart(
        { documentTypeId: referralType?.documentTypeId ?? '' },
        { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF },
      ),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const response = await chatRequest(
      { channel: 'chat', preferredTimes: ['weekdayAfternoon'], exams: ['mri-knee'], questionnaireKey: key, patient: patient() },
      address,
    );
    expect(response.statusCode, response.body).toBe(201);
    const summary = await summaryOf(response.json<{ bookingKey: string }>().bookingKey);
    expect(summary.referrals.map((referral) => referral.fileName)).toEqual(['referral.pdf']);
    expect(summary.screeningByPhone).toBe(true);
  });

  it('the booking flow still refuses a bookable exam and an unanswered screening', async () => {
    const before = await countRows(server.db, 'booking_request');
    const bookable = await chatRequest({ exams: ['ct-brain'], patient: patient() });
    expect(bookable.statusCode).toBe(400);
    expect(bookable.json().message).toBe('CT brain can be booked online; please choose a time for it instead.');
    expect(await countRows(server.db, 'booking_request')).toBe(before);
    // A web request from the flow: created as 'web' with no times.
    const web = await requestBooking(server.app, { exams: ['mri-cardiac'], patient: patient() });
    expect(web.statusCode, web.body).toBe(201);
    expect(await summaryOf(web.json<{ bookingKey: string }>().bookingKey)).toMatchObject({
      channel: 'web',
      preferredTimes: [],
      screeningByPhone: false,
    });
  });

  it.each([
    ['chat without preferred times', { channel: 'chat' }, PREFERRED_TIMES_MESSAGE],
    ['preferred times without chat', { preferredTimes: ['anyTime'] }, PREFERRED_TIMES_CHAT_ONLY],
    ['an unknown time', { channel: 'chat', preferredTimes: ['midnight'] }, PREFERRED_TIMES_MESSAGE],
    ['no time', { channel: 'chat', preferredTimes: [] }, PREFERRED_TIMES_MESSAGE],
    ['a time twice', { channel: 'chat', preferredTimes: ['anyTime', 'anyTime'] }, PREFERRED_TIMES_MESSAGE],
    ['an unknown channel', { channel: 'phone', preferredTimes: ['anyTime'] }, 'expected channel "web" or "chat"'],
  ])('%s: 400 with its message, nothing stored', async (_name, fields, message) => {
    const before = await Promise.all(['booking_request', 'patient', 'outbox_mail'].map((table) => countRows(server.db, table)));
    const response = await chatRequest({ ...fields, exams: ['mri-knee'], patient: patient() });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ details: Array<{ message: string }> }>().details.map((detail) => detail.message)).toContain(message);
    expect(await Promise.all(['booking_request', 'patient', 'outbox_mail'].map((table) => countRows(server.db, table)))).toEqual(before);
  });

  it('a wrong contact detail is the booking schema message', async () => {
    const response = await chatRequest({
      channel: 'chat',
      preferredTimes: ['anyTime'],
      exams: ['mri-knee'],
      patient: patient({ postalCode: '21' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Please enter a 4-digit Australian postcode.');
  });
});
