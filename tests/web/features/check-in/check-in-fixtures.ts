import { CheckInStatusSchema, type CheckInState, type CheckInStatus } from '@contract/api/check-in';
import { CheckInChecklistSchema, type CheckInChecklist } from '@contract/api/check-in-checklist';
import type { ReferringDoctor } from '@contract/api/referring-doctors';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';
import { BOOKING_KEY } from '../appointments/appointment-fixtures';

/** A stand-in for the check-in and doctor-search API over real HTTP, moving through the states as the real server does. */

export const SLUG = 'a1';
export const DOCTORS: ReferringDoctor[] = [
  {
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    displayName: 'Dr Amelia Nguyen',
    firstName: 'Amelia',
    lastName: 'Nguyen',
    providerNumber: '2143671A',
    practiceName: 'Parramatta Family Practice',
    city: 'Parramatta',
    postcode: '2150',
  },
  {
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    displayName: 'Dr Oliver Ng',
    firstName: 'Oliver',
    lastName: 'Ng',
    providerNumber: '2256190B',
    practiceName: 'Westmead Medical',
    city: 'Westmead',
    postcode: '2145',
  },
];

export function statusFixture(overrides: Partial<CheckInStatus> = {}): CheckInStatus {
  return CheckInStatusSchema.parse({
    appointmentSlug: SLUG,
    enabled: true,
    priorMinutes: 120,
    opensAt: '2026-11-30T20:30:00.000Z',
    closesAt: '2026-11-30T22:30:00.000Z',
    windowOpen: true,
    readiness: { ready: true, requiredReferralUploaded: true, documentTypeId: null, message: null },
    simpleMode: false,
    showGenderSelection: false,
    state: 'NOT_STARTED',
    checkInPrepared: false,
    checkInPreparedSent: false,
    checkInSent: false,
    checkInSuccess: false,
    ...overrides,
  });
}

/** After check-in: one form to sign and a CT at 09:30 Sydney time with 4 hours of fasting (from 05:30). */
export const CHECKLIST: CheckInChecklist = CheckInChecklistSchema.parse({
  timeZone: 'Australia/Sydney',
  items: [
    { kind: 'CONSENT_FORMS', count: 1 },
    {
      kind: 'PREPARATION',
      examName: 'CT abdomen and pelvis',
      startsAt: '2026-11-30T22:30:00.000Z',
      notes: 'Arrive 60 minutes early to drink the oral contrast.',
      fastingHours: 4,
      nothingToEatFrom: '2026-11-30T18:30:00.000Z',
    },
  ],
});

export interface CheckInServer {
  routes: Record<string, RouteHandler>;
  searches: string[];
  prepared: unknown[];
  checkIns: number;
}

/** Each status poll moves the hand-off one step: PREPARING to PREPARED and CHECKING_IN to CHECKED_IN, or either to FAILED when `fails`. */
export function checkInServer(initial: CheckInStatus = statusFixture(), fails = false): CheckInServer {
  let status = initial;
  const server: CheckInServer = { routes: {}, searches: [], prepared: [], checkIns: 0 };
  const base = `/api/secured/appointments/${BOOKING_KEY}/check-in/${SLUG}`;
  const move = (state: CheckInState) => {
    status = {
      ...status,
      state,
      checkInPrepared: true,
      checkInPreparedSent: state !== 'PREPARING',
      checkInSent: state === 'CHECKED_IN',
      checkInSuccess: state === 'CHECKED_IN',
    };
  };
  server.routes = {
    [`GET ${base}`]: (_request, response) => {
      if (status.state === 'PREPARING') move(fails ? 'FAILED' : 'PREPARED');
      else if (status.state === 'CHECKING_IN') move(fails ? 'FAILED' : 'CHECKED_IN');
      json(response, 200, status);
    },
    [`POST ${base}/prepare`]: (request, response) => {
      void readJsonBody(request).then((body) => {
        server.prepared.push(body);
        move('PREPARING');
        json(response, 202, status);
      });
    },
    [`POST ${base}`]: (_request, response) => {
      server.checkIns += 1;
      move('CHECKING_IN');
      json(response, 202, status);
    },
  };
  server.routes[`GET ${base}/checklist`] = (_request, response) => json(response, 200, CHECKLIST);
  for (const text of ['ngu', 'nguy', 'nguyen', 'wes', 'west']) {
    server.routes[`GET /api/secured/appointments/${BOOKING_KEY}/doctor_search/${text}`] = (_request, response) => {
      server.searches.push(text);
      json(response, 200, { doctors: DOCTORS.filter((doctor) => `${doctor.lastName} ${doctor.city}`.toLowerCase().includes(text)) });
    };
  }
  return server;
}
