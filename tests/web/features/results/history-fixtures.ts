import type { ServerResponse } from 'node:http';
import type { HistoryAppointment } from '@contract/api/results';
import { json, type RouteHandler } from '../../helpers/api-server';
import { BOOKING_KEY, imsec, LINK_TTL_MS } from './results-fixtures';

export const RELEASED_ID = '0b7f7a52-3c1d-4b8e-9a61-5e2f4d3c2b1a';
export const PENDING_ID = '9d2c4e6a-1b3f-4a5c-8e7d-6f5a4b3c2d1e';

export function releasedHistory(overrides: Partial<HistoryAppointment> = {}): HistoryAppointment {
  return {
    resultId: RELEASED_ID,
    examName: 'XR chest',
    clinicName: 'Chatswood Imaging',
    // 2:00 pm in Sydney (AEST, UTC+10) on Monday 3 August 2026.
    startsAt: '2026-08-03T04:00:00.000Z',
    timeZone: 'Australia/Sydney',
    state: 'RELEASED',
    releaseAt: '2026-08-05T00:00:00.000Z',
    reportText: 'FINDINGS:\nClear lungs.\n\nIMPRESSION:\n<i>No</i> acute finding.',
    reportedAt: '2026-08-04T01:00:00.000Z',
    referrerName: 'Dr Bea Referrer',
    imageViewerLink: imsec(Date.parse('2026-12-10T00:00:00.000Z'), LINK_TTL_MS, 'h1'),
    ...overrides,
  };
}

export const PENDING_HISTORY: HistoryAppointment = {
  resultId: PENDING_ID,
  examName: 'US abdomen',
  clinicName: 'Gosford Imaging',
  startsAt: '2026-12-01T23:00:00.000Z',
  timeZone: 'Australia/Sydney',
  state: 'NOT_RELEASED',
  // 9:00 am in Sydney on Friday 18 December 2026.
  releaseAt: '2026-12-17T22:00:00.000Z',
  reportText: null,
  reportedAt: null,
  referrerName: null,
  imageViewerLink: null,
};

type Answer = (response: ServerResponse) => void;

/** GET /api/results/{key}/history: the answers in order (the last repeats); counts the calls. */
export function historyRoute(answers: ({ historyAppointments: HistoryAppointment[] } | Answer)[]) {
  const calls = { count: 0 };
  const route: RouteHandler = (_request, response) => {
    const value = answers[Math.min(calls.count++, answers.length - 1)];
    if (typeof value === 'function') value(response);
    else json(response, 200, value);
  };
  return { calls, routes: { [`GET /api/results/${BOOKING_KEY}/history`]: route } };
}
