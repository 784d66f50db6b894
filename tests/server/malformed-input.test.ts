import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-server/platform/plugins/csrf-guard';
import { MALFORMED_MULTIPART } from '../../src-server/platform/multipart-errors';
import { CONTROL_CHARACTER_MESSAGE } from '@contract/api/text';
import { backends } from './helpers/database';
import { useMatrixApp } from './matrix-app';
import { patient } from './modules/booking/booking-test-kit';
import {
  expectedOutcome,
  LIAM,
  ROUTE_BODIES,
  ROUTE_QUERIES,
  SESSION_ENDING_ROUTES,
  urlFor,
  type Caller,
  type CallerName,
} from './route-access-matrix';
import type { RouteAccess as Access } from '../../src-server/platform/route-access';
import { declaredRouteAccess } from './declared-access';
import { BROKEN_MULTIPART, mutations, type OpenApi, type Operation } from './malformed-input-kit';

// Malformed input is a 400, never a 500 (docs/rules/security.md#input): every route the server
// registers (each with its declared access, declared-access.ts) gets control characters (NUL, BEL, ESC, DEL) in each path
// parameter, in each query parameter and in each string of its JSON body (read from the OpenAPI
// document), anonymously and as a caller it lets in (route-access-matrix.ts); the upload routes
// also get broken multipart bodies. Bounded: one request per (route, caller, place, sample).

const DECLARED = await declaredRouteAccess();

/** A valid body for the routes with free text, so the text itself, not a missing field, is what is judged. */
const FUZZ_BODIES: Record<string, object> = {
  ...ROUTE_BODIES,
  'POST /api/appointments/:bookingKey/cancel': { reason: { label: 'I am feeling better' }, note: 'Feeling better' },
  'POST /api/appointments/:bookingKey/request-reschedule': { note: 'Mornings please' },
  'POST /api/appointments/:bookingKey/details-change-request': { postcode: '2150', note: 'New address' },
  'POST /api/results/:bookingKey/shares': {
    contactDetails: 'gp@example.com',
    contactDetailsType: 'EMAIL',
    contactName: 'Dr Gemma',
    note: 'For Friday',
    type: 'RESULT',
  },
  'POST /api/booking/booking-requests': { exams: ['mri-cardiac'], clinicSlug: 'newcastle', patient: patient(), patientNotes: 'Mornings' },
  'POST /api/staff/kiosks': { name: 'Fuzz lobby' },
  'POST /api/kiosk/check-in/identity': { lastName: 'Arrival', dateOfBirth: '1983-06-30' },
};

/** Strings the OpenAPI document cannot name: a free-text answer inside a questionnaire's answers. */
const ANSWER_PATHS: Record<string, Array<Array<string | number>>> = {
  'POST /api/questionnaires/appointments/:bookingKey/answers': [['questionnaireResult', 'comments']],
};

/** Headers some routes validate before the body (the booking writes' idempotency key). */
const fuzzHeaders = (route: string): Record<string, string> =>
  route.startsWith('POST /api/booking/') || route.endsWith('/reschedule') ? { 'idempotency-key': randomUUID() } : {};

const MULTIPART_ROUTE = /^(POST|PUT) .*\/attachments(\/:attachmentId)?$/;

describe.each(backends())('malformed input never gets a 5xx, on %s', (backend) => {
  const { server, ids, callers } = useMatrixApp(backend);
  let openApi: OpenApi = { paths: {} };
  let temporaryKey = '';
  let sent = 0;
  afterAll(() => {
    // The bound: a few thousand requests at most (about 2,000 today).
    console.info(`[malformed-input] ${sent} requests`);
  });

  beforeAll(async () => {
    openApi = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json<OpenApi>();
    const feedback = await server.db.query<{ id: string }>(`select id::text as id from questionnaire where slug = 'patient-feedback'`);
    FUZZ_BODIES['POST /api/questionnaires/appointments/:bookingKey/answers'] = {
      questionnaireId: feedback[0]?.id ?? '',
      questionnaireResult: { overall: 5, comments: 'Friendly staff' },
    };
    const key = await server.app.inject({
      method: 'POST',
      url: '/api/questionnaires/booking-keys',
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
    });
    temporaryKey = key.json<{ bookingKey: string }>().bookingKey;
    // The demo's MRI safety questions, answered in full (its only text answers are chosen from lists).
    const mri = await server.db.query<{ id: string }>(`select id::text as id from questionnaire where slug = 'mri-safety-screening'`);
    FUZZ_BODIES['POST /api/questionnaires/temporary-answers'] = {
      bookingKey: temporaryKey,
      questionnaireId: mri[0]?.id ?? '',
      examSlug: 'mri-knee',
      questionnaireResult: {
        pacemaker: 'no',
        hasImplants: true,
        implantType: 'Hip',
        implantCard: 'yes',
        metalInEyes: 'no',
        claustrophobia: false,
        weightKg: 82,
      },
    };
  });

  /** Anonymous, and the first caller the route lets in (when that is someone else). */
  function callersFor(access: Access): Caller[] {
    const anonymous = callers.filter((caller) => caller.name === 'anonymous');
    const allowed = callers.find((caller) => caller.name !== 'anonymous' && expectedOutcome(access, caller.name) === 'allowed');
    return allowed === undefined ? anonymous : [...anonymous, allowed];
  }

  const callerNamed = (name: CallerName): Caller => {
    const found = callers.find((caller) => caller.name === name);
    if (found === undefined) throw new Error(`no caller ${name}`);
    return found;
  };

  it('answers the reported cases 400 with a message naming the problem', async () => {
    const liam = `/api/appointments/${LIAM.bookingKey}`;
    const textCases: Array<[CallerName, string, string, object | undefined, string]> = [
      ['patient (appointment)', 'GET', `/api/secured/appointments/${LIAM.bookingKey}/doctor_search/smi%00th`, undefined, 'params/text'],
      ['patient (appointment)', 'POST', `${liam}/request-reschedule`, { note: 'Mornings\u0000' }, 'body/note'],
      ['patient (appointment)', 'POST', `${liam}/details-change-request`, { postcode: '2150', note: 'x\u0000' }, 'body/note'],
      [
        'patient (results)',
        'POST',
        `/api/results/${LIAM.bookingKey}/shares`,
        { ...FUZZ_BODIES['POST /api/results/:bookingKey/shares'], note: 'a\u0000' },
        'body/note',
      ],
      ['admin', 'POST', '/api/staff/kiosks', { name: 'Lobby\u0000' }, 'body/name'],
    ];
    for (const [name, method, url, body, field] of textCases) {
      const response = await callerNamed(name).send(method, url, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'validation_failed',
        message: CONTROL_CHARACTER_MESSAGE,
        details: [{ in: field, message: CONTROL_CHARACTER_MESSAGE }],
      });
    }
    // A line break is fine in a note, not in a name.
    expect((await callerNamed('admin').send('POST', '/api/staff/kiosks', { name: 'Lobby\n2' })).statusCode).toBe(400);
    const upload = `/api/booking-keys/${temporaryKey}/attachments`;
    for (const broken of Object.values(BROKEN_MULTIPART).slice(0, 4)) {
      const response = await callerNamed('anonymous').send('POST', upload, broken.body, { 'content-type': broken.contentType });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual(MALFORMED_MULTIPART);
    }
  });

  const routes = DECLARED.filter(([route]) => !SESSION_ENDING_ROUTES.has(route));
  it.each(routes)('%s', async (route, access) => {
    const { method, url: sampleUrl } = urlFor(route, access, ids);
    // While booking, the temporary key is the credential: a live one, so the request gets past it.
    const url = sampleUrl.replace(/^\/api\/booking-keys\/[^/]+/, `/api/booking-keys/${temporaryKey}`);
    const [, pattern = ''] = route.split(' ');
    const operation: Operation | undefined = openApi.paths[pattern.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    const base = method === 'GET' || method === 'DELETE' ? undefined : (FUZZ_BODIES[route] ?? {});
    const extra = ANSWER_PATHS[route] ?? [];
    const requests = mutations({ method, url, pattern, query: ROUTE_QUERIES[route] ?? '', body: base, operation, extra });
    const who = callersFor(access);
    sent += who.length * (requests.length + (MULTIPART_ROUTE.test(route) ? Object.keys(BROKEN_MULTIPART).length : 0));
    const failures: string[] = [];
    const accepted: string[] = [];
    const record = (caller: Caller, what: string, response: LightMyRequestResponse) => {
      const line = `${caller.name} ${what}: ${response.statusCode} ${response.body.slice(0, 200)}`;
      if (response.statusCode >= 500) failures.push(line);
      if (response.statusCode < 300) accepted.push(line);
    };
    for (const caller of who) {
      for (const request of requests) {
        const response = await caller.send(method, request.url, request.body, fuzzHeaders(route));
        record(caller, request.what, response);
      }
      if (MULTIPART_ROUTE.test(route))
        for (const [what, broken] of Object.entries(BROKEN_MULTIPART)) {
          record(caller, what, await caller.send(method, url, broken.body, { 'content-type': broken.contentType }));
        }
    }
    expect(failures, 'answers >= 500').toEqual([]);
    // Control characters are refused wherever they are sent (a 4xx), never stored.
    expect(accepted, 'answers < 300').toEqual([]);
  });
});
