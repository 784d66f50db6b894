import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src-web/api/client';
import { bookingFailure } from '../../../../src-web/features/booking/booking-errors';

describe('bookingFailure', () => {
  const http = (status: number, code = 'internal_error') => new ApiError('http', status, code as ApiError['code'], 'server says no');

  it.each([500, 501, 502, 503, 504] as const)('should give %i its own text', (status) => {
    expect(bookingFailure(http(status))).toEqual({ kind: 'server', status });
  });

  it.each([505, 507, 599])('should give %i the general text', (status) => {
    expect(bookingFailure(http(status))).toEqual({ kind: 'general' });
  });

  it('should treat a lost answer as general', () => {
    expect(bookingFailure(new ApiError('network', 0, 'service_unavailable', 'offline'))).toEqual({ kind: 'general' });
    expect(bookingFailure(new Error('boom'))).toEqual({ kind: 'general' });
  });

  it('should recognise a taken time and an expired hold', () => {
    expect(bookingFailure(new ApiError('http', 409, 'slot_taken', 'taken'))).toEqual({ kind: 'slot_taken' });
    expect(bookingFailure(new ApiError('http', 409, 'hold_expired', 'expired'))).toEqual({ kind: 'slot_taken' });
  });

  it('should pass a refusal of the details on with its message', () => {
    expect(bookingFailure(http(400, 'validation_failed'))).toEqual({ kind: 'invalid', message: 'server says no' });
  });

  it('should say when the booking limits free from the Retry-After seconds, by the given clock', () => {
    const now = () => new Date('2026-11-23T01:00:00.000Z');
    const refused = new ApiError('http', 429, 'too_many_requests', 'too many', { retryAfterSeconds: 90 });
    expect(bookingFailure(refused, now)).toEqual({ kind: 'too_many', retryAt: '2026-11-23T01:01:30.000Z' });
    expect(bookingFailure(new ApiError('http', 429, 'too_many_requests', 'too many'), now)).toEqual({ kind: 'too_many', retryAt: null });
  });

  it('should send a proof-of-work request that reached the page to reception', () => {
    expect(bookingFailure(new ApiError('http', 403, 'captcha_required', 'check'))).toEqual({ kind: 'ask_reception' });
    expect(bookingFailure(http(403, 'forbidden'))).toEqual({ kind: 'invalid', message: 'server says no' });
  });

  it("should ask for the exams' safety questions when the server requires their screening (400 questionnaire_required)", () => {
    // The server's message speaks to a partner's developer; the patient gets the page's own words.
    const refused = new ApiError('http', 400, 'questionnaire_required', "MRI knee needs its safety questionnaire 'MRI safety screening'…");
    expect(bookingFailure(refused)).toEqual({ kind: 'screening_required' });
    expect(bookingFailure(http(400, 'validation_failed'))).toEqual({ kind: 'invalid', message: 'server says no' });
  });
});
