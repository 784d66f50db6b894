import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { countRows, newClientAddress, patient } from './booking-test-kit';
import { SMALL_LIMITS, useLimitedApp } from './limited-app';

// The booking limits (docs/rules/booking.md#booking-limits) count chat requests like any other
// booking request (docs/rules/chat.md#the-server): per client address and per contact.

describe.each(backends())('chat booking requests and the booking limits on %s', (backend) => {
  const server = useLimitedApp(backend, SMALL_LIMITS);

  const chatFrom = (address: string, details = patient()) =>
    server.app.inject({
      method: 'POST',
      url: '/api/booking/booking-requests',
      headers: { 'idempotency-key': randomUUID() },
      remoteAddress: address,
      payload: { channel: 'chat', preferredTimes: ['anyTime'], exams: ['mri-knee'], patient: details },
    });

  it('past the per-address count a chat request needs the proof-of-work answer, and stores nothing without it', async () => {
    const address = newClientAddress();
    for (let made = 0; made < SMALL_LIMITS.bookingsPerClient.captchaAfter; made++) expect((await chatFrom(address)).statusCode).toBe(201);
    const before = await countRows(server.db, 'booking_request');
    const refused = await chatFrom(address);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('captcha_required');
    expect(await countRows(server.db, 'booking_request')).toBe(before);
  });

  it('the same contact from many addresses meets the per-contact limit', async () => {
    const details = patient();
    for (let made = 0; made < SMALL_LIMITS.bookingsPerContact.captchaAfter; made++)
      expect((await chatFrom(newClientAddress(), details)).statusCode).toBe(201);
    const refused = await chatFrom(newClientAddress(), details);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('captcha_required');
  });
});
