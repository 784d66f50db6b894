import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { JWTPayload } from 'jose';
import { expect } from 'vitest';
import { isResultSignInType, PATIENT_SESSION_COOKIE, type SignInType } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE, type StaffRole } from '@contract/api/staff-access';
import type { StaffIdentityOptions } from '../../src-server/modules/staff-access/routes';
import type { TestClock } from '../../src-server/platform/clock';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-server/platform/plugins/csrf-guard';
import type { Database } from '../../src-server/db/connection';
import { cookieBrowser, type CookieBrowser } from './helpers/cookie-browser';
import { mailedCode } from './modules/patient-access/sign-in-kit';
import {
  ADMIN_CLAIMS,
  KIOSK_ADMIN_CLAIMS,
  REFERRER_CLAIMS,
  STAFF_CLAIMS,
  type TestIdentityProvider,
} from './modules/staff-access/identity-kit';
import type { RouteAccess as Access } from '../../src-server/platform/route-access';

/**
 * The callers of the route matrix (route-access.test.ts) and what each should get from a route
 * of each access class (src-server/platform/route-access.ts). Sessions are real: a patient signs in through
 * POST /api/patient-access/authenticate, staff through POST /api/staff-access/session with an
 * RS256 token from the test identity provider.
 */

export const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };
const LIAM_EMAIL = 'liam.example@example.com';
/** The patient-portal caller's own booking: a results sign-in of LIAM's would share his code's resend pause. */
export const AMELIA = { bookingKey: 'RTZZ7AsePVS1c6abT-l4BA', dateOfBirth: '1968-11-02' };
const EMAILS: Record<string, string> = { [LIAM.bookingKey]: LIAM_EMAIL, [AMELIA.bookingKey]: 'amelia.sample@example.com' };
export const CHLOE_REQUEST = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };

export const CALLERS = [
  'anonymous',
  'patient (appointment)',
  'patient (booking request)',
  'patient (results)',
  'patient (portal)',
  'contact (shared results)',
  'staff',
  'admin',
  'referrer',
  'kioskAdmin',
  'machine (staff token)',
  'machine (integration token)',
  'machine (metrics token)',
  'machine (SMS provider token)',
  'kiosk',
  'kiosk + patient (appointment)',
  'machine (FHIR token)',
  'machine (FHIR token, other scope)',
] as const;
export type CallerName = (typeof CALLERS)[number];

/** Each app role gives exactly one portal role, so each staff caller holds only its own. */
export const MATRIX_ROLE_MAPPING: StaffIdentityOptions['roleMapping'] = {
  roles: { 'Portal.Staff': 'staff', 'Portal.Admin': 'admin', 'Portal.Referrer': 'referrer', 'Portal.KioskAdmin': 'kioskAdmin' },
};

const STAFF_CALLERS: Record<StaffRole, JWTPayload> = {
  staff: STAFF_CLAIMS,
  admin: ADMIN_CLAIMS,
  referrer: REFERRER_CLAIMS,
  kioskAdmin: KIOSK_ADMIN_CLAIMS,
};

const PATIENT_CALLERS: Partial<Record<CallerName, { person: typeof LIAM; type: SignInType }>> = {
  'patient (appointment)': { person: LIAM, type: 'APPOINTMENT' },
  'patient (booking request)': { person: CHLOE_REQUEST, type: 'BOOKING_REQUEST' },
  // Results sign-ins always need the one-time code (read from the outbox mail).
  'patient (results)': { person: LIAM, type: 'APPOINTMENT_RESULTS' },
  'patient (portal)': { person: AMELIA, type: 'PATIENT_PORTAL' },
};

/** What a caller got: let through ('allowed': the route's own answer, whatever it is) or the refusal status. */
export type Outcome = 'allowed' | 401 | 403 | 404;

/** The callers holding LIAM's APPOINTMENT session (at home, or at a kiosk). */
const withAppointmentSession = (caller: CallerName): boolean =>
  caller === 'patient (appointment)' || caller === 'kiosk + patient (appointment)';

type AccessClass = Exclude<Access, object>;
type Refusal = 401 | 403 | 404;

const patientOrContact = (caller: CallerName): boolean =>
  caller.startsWith('patient') || caller.startsWith('contact') || withAppointmentSession(caller);
const staffMember = (caller: CallerName): boolean => caller === 'staff' || caller === 'admin';
const only =
  (...callers: CallerName[]) =>
  (caller: CallerName): boolean =>
    callers.includes(caller);
const nobody = (): boolean => false;

const appointmentOrStaff = (caller: CallerName): boolean => withAppointmentSession(caller) || staffMember(caller);

/**
 * Per access class but public (open to all): who is let through, and the one status everyone
 * else gets, which is also the refusal the test tells apart from the route's own answers.
 */
const CLASS_RULES: Record<Exclude<AccessClass, 'public'>, { allows: (caller: CallerName) => boolean; refusal: Refusal }> = {
  'sign-in-session': { allows: nobody, refusal: 401 },
  'appointment-session': { allows: withAppointmentSession, refusal: 401 },
  'booking-request-session': { allows: only('patient (booking request)'), refusal: 401 },
  'staff-token': { allows: only('machine (staff token)'), refusal: 403 },
  'integration-token': { allows: only('machine (integration token)'), refusal: 403 },
  // Configured in MATRIX_ENV; unconfigured it answers 404 to all (tests/server/platform/metrics.test.ts).
  'metrics-token': { allows: only('machine (metrics token)'), refusal: 403 },
  // Configured in MATRIX_ENV; unconfigured it answers 404 to all (tests/server/modules/appointments/sms-replies.test.ts).
  'sms-provider-token': { allows: only('machine (SMS provider token)'), refusal: 403 },
  'dev-loopback': { allows: nobody, refusal: 404 },
  'appointment-session-or-staff': { allows: appointmentOrStaff, refusal: 401 },
  'booking-receipt-or-appointment-session-or-staff': { allows: appointmentOrStaff, refusal: 401 },
  'booking-request-session-or-staff': { allows: (caller) => caller === 'patient (booking request)' || staffMember(caller), refusal: 401 },
  'kiosk-token': { allows: only('kiosk', 'kiosk + patient (appointment)'), refusal: 401 },
  'kiosk-and-appointment-session': { allows: only('kiosk + patient (appointment)'), refusal: 401 },
  'results-session': { allows: only('patient (results)'), refusal: 401 },
  'portal-session': { allows: only('patient (portal)'), refusal: 401 },
  'image-viewer-link': { allows: nobody, refusal: 403 },
  'shared-session': { allows: only('contact (shared results)'), refusal: 401 },
  'patient-session': { allows: patientOrContact, refusal: 401 },
};

/** What `caller` must get from a route of class `access`. */
export function expectedOutcome(access: Access, caller: CallerName): Outcome {
  if (typeof access === 'object' && access.kind === 'fhir-scope') {
    // Only a valid token for the FHIR audience is let in, and only with a scope for the route's resource.
    if (caller === 'machine (FHIR token)') return 'allowed';
    return caller === 'machine (FHIR token, other scope)' ? 403 : 401;
  }
  if (typeof access === 'object') {
    const role = caller in STAFF_CALLERS ? (caller as StaffRole) : null;
    if (role === null) return access.patientForbidden === true && patientOrContact(caller) ? 403 : 401;
    return access.roles.includes(role) ? 'allowed' : 403;
  }
  if (access === 'public') return 'allowed';
  const rule = CLASS_RULES[access];
  return rule.allows(caller) ? 'allowed' : rule.refusal;
}

/**
 * The statuses that are a refusal on a route of this class; any other answer is the route's own
 * (a 400 for the empty body, a 404 for a missing resource...). A public route refuses nobody:
 * a 401 or 403 from one would be a guard where none is declared.
 */
function refusals(access: Access): readonly number[] {
  return typeof access === 'object' || access === 'public' ? [401, 403] : [CLASS_RULES[access].refusal];
}

export function outcomeOf(access: Access, response: LightMyRequestResponse): Outcome {
  const status = response.statusCode;
  return refusals(access).includes(status) ? (status as 401 | 403 | 404) : 'allowed';
}

export function describeAccess(access: Access): string {
  if (typeof access === 'string') return access;
  return access.kind === 'fhir-scope'
    ? `FHIR scope: ${access.resource} ${access.interaction}`
    : `staff session: ${access.roles.join(', ')}`;
}

/** A sample value per path parameter; real resources, so a refusal is not a mere "not found". */
export const ROUTE_PARAMS: Record<string, (access: Access, ids: { appointmentId: string; mailId: string }) => string> = {
  bookingKey: (access) =>
    access === 'appointment-session' ||
    access === 'appointment-session-or-staff' ||
    access === 'booking-receipt-or-appointment-session-or-staff' ||
    access === 'kiosk-and-appointment-session' ||
    access === 'results-session'
      ? LIAM.bookingKey
      : access === 'portal-session'
        ? AMELIA.bookingKey
        : CHLOE_REQUEST.bookingKey,
  appointmentSlug: (_access, ids) => ids.appointmentId,
  appointmentId: (_access, ids) => ids.appointmentId,
  id: (access, ids) =>
    access === 'dev-loopback' ? ids.mailId : access === 'results-session' ? '00000000-0000-4000-8000-000000000003' : '1',
  resultId: () => '00000000-0000-4000-8000-000000000004',
  accessionNumber: () => 'ACC-MATRIX-1',
  index: () => '0',
  name: () => 'logo.png',
  postcode: () => '2150',
  holdId: () => 'AAAAAAAAAAAAAAAAAAAAAA',
  source: () => 'medications',
  attachmentId: () => '00000000-0000-4000-8000-000000000001',
  // Not the matrix's own kiosk: revoking it would refuse the kiosk callers for the routes after.
  kioskId: () => '00000000-0000-4000-8000-000000000002',
  text: () => 'smith',
  formId: () => '00000000-0000-4000-8000-000000000006',
  reviewId: () => '00000000-0000-4000-8000-000000000007',
};

/** A valid body where a route validates it before the access check (so the refusal, not a 400, is what is tested). */
export const ROUTE_BODIES: Record<string, object> = {
  'POST /api/patient-access/otp': { channel: 'EMAIL' },
  'POST /api/patient-access/otp/verify': { code: '123456' },
  'POST /api/image_viewer/direct': { input: 'v1.hkdf1.not-a-link.tag' },
  'POST /api/image_viewer_link/questionnaires': {
    questionnaireId: '00000000-0000-4000-8000-000000000005',
    questionnaireResult: { clarity: 5 },
  },
  'POST /api/results/:bookingKey/shares': { contactDetails: 'gp@example.com', contactDetailsType: 'EMAIL', type: 'RESULT' },
  'POST /api/results/:bookingKey/patient-match': { dateOfBirth: '1968-11-02', email: 'amelia.sample@example.com' },
};

/** A valid query where a route validates it before the access check. */
export const ROUTE_QUERIES: Record<string, string> = {
  'GET /api/image_viewer': '?input=v1.hkdf1.not-a-link.tag',
  'GET /api/image_viewer_link/report': '?imsec=v1.hkdf1.not-a-link.tag',
  'GET /api/image_viewer_link/report.pdf': '?imsec=v1.hkdf1.not-a-link.tag',
  'POST /api/image_viewer/generate': '?imsec=v1.hkdf1.not-a-link.tag&accessionNumber=ACC-1&repositorySource=default',
  'GET /api/image_viewer_link/questionnaires': '?imsec=v1.hkdf1.not-a-link.tag',
  'POST /api/image_viewer_link/questionnaires': '?imsec=v1.hkdf1.not-a-link.tag',
  'GET /api/notifications/unsubscribe': '?token=v1.hkdf1.not-a-link.tag',
  'POST /api/notifications/unsubscribe': '?token=v1.hkdf1.not-a-link.tag',
  'POST /api/notifications/unsubscribe/resubscribe': '?token=v1.hkdf1.not-a-link.tag',
  'GET /api/appointment-reply': '?token=v1.hkdf1.not-a-link.tag',
  'POST /api/appointment-reply/confirm': '?token=v1.hkdf1.not-a-link.tag',
  'POST /api/appointment-reply/cancel': '?token=v1.hkdf1.not-a-link.tag',
};

/** Routes after which the callers' sessions are gone (the matrix signs them in again). */
export const SESSION_ENDING_ROUTES: ReadonlySet<string> = new Set(['POST /api/patient-access/logout', 'POST /api/staff-access/logout']);

export function urlFor(route: string, access: Access, ids: { appointmentId: string; mailId: string }): { method: string; url: string } {
  const [method = 'GET', pattern = ''] = route.split(' ');
  const url = pattern.replace(/:(\w+)/g, (_, name: string) => {
    const sample = ROUTE_PARAMS[name];
    if (sample === undefined) throw new Error(`add a sample value for :${name} to ROUTE_PARAMS in tests/server/route-access-matrix.ts`);
    return encodeURIComponent(sample(access, ids));
  });
  return { method, url: `${url}${ROUTE_QUERIES[route] ?? ''}` };
}

/** Machine clients' bearer tokens; the server knows only their sha256 (STAFF_API_TOKEN_SHA256, INTEGRATION_API_TOKEN_SHA256). */
const MACHINE_TOKEN = 'route-matrix-machine-token-0123456789abcdef';
const INTEGRATION_TOKEN = 'route-matrix-integration-token-0123456789';
const METRICS_TOKEN = 'route-matrix-metrics-token-0123456789abcd';
const SMS_PROVIDER_TOKEN = 'route-matrix-sms-provider-token-0123456789';
/** The audience of the FHIR callers' access tokens; they are signed by the test identity provider. */
export const MATRIX_FHIR_AUDIENCE = 'https://portal.example.test/fhir/R4';
/** The FHIR callers' scopes: every resource type to read and search, or one the server does not serve. */
const FHIR_SCOPES: Partial<Record<CallerName, string>> = {
  'machine (FHIR token)': 'system/*.cruds',
  'machine (FHIR token, other scope)': 'system/Observation.rs',
};
export const MATRIX_ENV = {
  MAIL_DEV_OUTBOX_ENABLED: 'true',
  FHIR_AUDIENCE: MATRIX_FHIR_AUDIENCE,
  STAFF_API_TOKEN_SHA256: createHash('sha256').update(MACHINE_TOKEN).digest('hex'),
  INTEGRATION_API_TOKEN_SHA256: createHash('sha256').update(INTEGRATION_TOKEN).digest('hex'),
  METRICS_TOKEN_SHA256: createHash('sha256').update(METRICS_TOKEN).digest('hex'),
  SMS_INBOUND_TOKEN_SHA256: createHash('sha256').update(SMS_PROVIDER_TOKEN).digest('hex'),
};

/** Not loopback: the development outbox answers only this machine. */
const CALLER_ADDRESS = '203.0.113.9';

export interface Caller {
  name: CallerName;
  /**
   * Calls the route as this caller: its session cookie, and the CSRF header the web client sends
   * when it has one; `extra` headers (a raw body's content-type) on top.
   */
  send(method: string, url: string, payload: object | string | undefined, extra?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Signs in again (after a route that ended the session). */
  renew(): Promise<void>;
}

interface MatrixDeps {
  app: FastifyInstance;
  db: Database;
  clock: TestClock;
  provider: TestIdentityProvider;
}

/** A request from the callers' address with exactly these headers. */
function injectFrom(
  deps: MatrixDeps,
  method: string,
  url: string,
  payload: object | string | undefined,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return deps.app.inject({
    method: method as 'GET',
    url,
    remoteAddress: CALLER_ADDRESS,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** What the web client sends with a session: the CSRF header, and the session cookie once it has one. */
function browserHeaders(browser: CookieBrowser, cookieName: string): Record<string, string> {
  return { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...(browser.token === null ? {} : { cookie: `${cookieName}=${browser.token}` }) };
}

function sessionCaller(deps: MatrixDeps, name: CallerName, cookieName: string, signIn: (browser: CookieBrowser) => Promise<void>): Caller {
  const browser = cookieBrowser(deps.app, cookieName, CALLER_ADDRESS);
  return {
    name,
    send: (method, url, payload, extra = {}) =>
      injectFrom(deps, method, url, payload, { ...browserHeaders(browser, cookieName), ...extra }),
    renew: () => signIn(browser),
  };
}

/** Adds a kiosk through the kiosk administrator's session and enrolls it: its token. */
async function enrolledKioskToken(deps: MatrixDeps, kioskAdmin: Caller): Promise<string> {
  const added = await kioskAdmin.send('POST', '/api/staff/kiosks', { name: 'Route matrix kiosk' });
  expect(added.statusCode, `a kiosk is added: ${added.body}`).toBe(201);
  const enrolled = await deps.app.inject({
    method: 'POST',
    url: '/api/kiosk/enroll',
    remoteAddress: CALLER_ADDRESS,
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
    payload: { code: added.json<{ code: string }>().code },
  });
  const token = /__Host-portal_kiosk=([A-Za-z0-9_-]+)/.exec(String(enrolled.headers['set-cookie']))?.[1];
  expect(enrolled.statusCode, `the kiosk enrolls: ${enrolled.body}`).toBe(200);
  return token ?? '';
}

/** A lobby kiosk (its token in Authorization: Kiosk), alone or with LIAM signed in at it. */
function kioskCaller(deps: MatrixDeps, name: 'kiosk' | 'kiosk + patient (appointment)', all: () => Caller[]): Caller {
  const browser = cookieBrowser(deps.app, PATIENT_SESSION_COOKIE, CALLER_ADDRESS);
  let token = '';
  return {
    name,
    send: (method, url, payload, extra = {}) =>
      injectFrom(deps, method, url, payload, {
        ...browserHeaders(browser, PATIENT_SESSION_COOKIE),
        authorization: `Kiosk ${token}`,
        ...extra,
      }),
    renew: async () => {
      const kioskAdmin = all().find((caller) => caller.name === 'kioskAdmin');
      if (kioskAdmin === undefined) throw new Error('the kiosk callers need the kioskAdmin caller before them');
      if (token === '') token = await enrolledKioskToken(deps, kioskAdmin);
      if (name === 'kiosk') return;
      const body = { bookingKey: LIAM.bookingKey, type: 'APPOINTMENT', dateOfBirth: LIAM.dateOfBirth };
      const response = await browser.request('POST', '/api/patient-access/authenticate', body);
      expect(response.statusCode, `${name} signs in: ${response.body}`).toBe(200);
    },
  };
}

/** The share the contact caller opens: a released report of LIAM's and a share of it, written straight to the database. */
const SHARE_TOKEN = 'RouteMatrixShareToken0123456789abcdefghijkl';
const CONTACT_EMAIL = 'matrix.contact@example.com';

async function contactSignIn(deps: MatrixDeps, browser: CookieBrowser): Promise<void> {
  const [existing] = await deps.db.query(`select 1 from result_share where token_sha256 = $1`, [sha256(SHARE_TOKEN)]);
  if (existing === undefined) {
    const now = deps.clock.now();
    await deps.db.query(
      `insert into result_report (accession_number, appointment_id, report_text, pdf_key, pdf_sha256, pdf_size, referrer_name,
                                  release_at, received_at, delivery_sha256)
       select 'MATRIX-1', id, 'Matrix report.', 'matrixPdfKey00000000000', repeat('a', 64), 1, 'Dr Matrix', $2, $2, repeat('b', 64)
         from appointment where booking_key = $1 limit 1`,
      [LIAM.bookingKey, new Date(now.getTime() - 86_400_000).toISOString()],
    );
    await deps.db.query(
      `insert into result_share (booking_key, share_type, contact_details, contact_type, token_sha256, created_at, expires_at)
       values ($1, 'RESULT', $2, 'EMAIL', $3, $4, $4::timestamptz + interval '30 days')`,
      [LIAM.bookingKey, CONTACT_EMAIL, sha256(SHARE_TOKEN), now.toISOString()],
    );
  }
  const opened = await browser.request('POST', '/api/patient-access/shared', { shareToken: SHARE_TOKEN, dateOfBirth: LIAM.dateOfBirth });
  expect(opened.statusCode, `the contact opens the share: ${opened.body}`).toBe(200);
  deps.clock.advance(60_000);
  expect((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode).toBe(202);
  const verified = await browser.request('POST', '/api/patient-access/otp/verify', { code: await mailedCode(deps.db, CONTACT_EMAIL) });
  expect(verified.statusCode, `the contact gives the code: ${verified.body}`).toBe(200);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const MACHINE_TOKENS: Partial<Record<CallerName, string>> = {
  'machine (staff token)': MACHINE_TOKEN,
  'machine (integration token)': INTEGRATION_TOKEN,
  'machine (metrics token)': METRICS_TOKEN,
  'machine (SMS provider token)': SMS_PROVIDER_TOKEN,
};

/** A RIS with an access token for the FHIR API (client credentials: no person, sub is the client), signed afresh for each call. */
function fhirCaller(deps: MatrixDeps, name: CallerName, scope: string): Caller {
  return {
    name,
    send: async (method, url, payload, extra = {}) => {
      const token = await deps.provider.sign({ sub: 'matrix-ris', client_id: 'matrix-ris', scope }, deps.clock.now(), {
        audience: MATRIX_FHIR_AUDIENCE,
      });
      return injectFrom(deps, method, url, payload, { authorization: `Bearer ${token}`, ...extra });
    },
    renew: () => Promise.resolve(),
  };
}

/** Every caller, signed in once (the provider's otpRequired must be off; the results caller gives its code). */
export async function createCallers(deps: MatrixDeps): Promise<Caller[]> {
  const callers: Caller[] = CALLERS.map((name): Caller => {
    const staffClaims = (STAFF_CALLERS as Partial<Record<CallerName, JWTPayload>>)[name];
    if (staffClaims !== undefined) {
      return sessionCaller(deps, name, STAFF_SESSION_COOKIE, async (browser) => {
        const token = await deps.provider.sign(staffClaims, deps.clock.now());
        const response = await browser.request('POST', '/api/staff-access/session', { token });
        expect(response.statusCode, `${name} signs in: ${response.body}`).toBe(200);
        expect(response.json<{ roles: string[] }>().roles, `${name} holds only its own role`).toEqual([name]);
      });
    }
    if (name === 'contact (shared results)')
      return sessionCaller(deps, name, PATIENT_SESSION_COOKIE, (browser) => contactSignIn(deps, browser));
    const patient = PATIENT_CALLERS[name];
    if (patient !== undefined) {
      return sessionCaller(deps, name, PATIENT_SESSION_COOKIE, async (browser) => {
        const { person, type } = patient;
        const body = { bookingKey: person.bookingKey, type, dateOfBirth: person.dateOfBirth };
        const response = await browser.request('POST', '/api/patient-access/authenticate', body);
        expect(response.statusCode, `${name} signs in: ${response.body}`).toBe(200);
        if (!isResultSignInType(type)) {
          expect(response.json<{ otpRequired: boolean }>().otpRequired, `${name} is fully signed in`).toBe(false);
          return;
        }
        // Past the code's resend pause since this booking's last sign-in.
        deps.clock.advance(60_000);
        expect((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode).toBe(202);
        const email = EMAILS[person.bookingKey] ?? '';
        const verified = await browser.request('POST', '/api/patient-access/otp/verify', { code: await mailedCode(deps.db, email) });
        expect(verified.statusCode, `${name} gives the code: ${verified.body}`).toBe(200);
      });
    }
    if (name === 'kiosk' || name === 'kiosk + patient (appointment)') return kioskCaller(deps, name, () => callers);
    const fhirScope = FHIR_SCOPES[name];
    if (fhirScope !== undefined) return fhirCaller(deps, name, fhirScope);
    // Anonymous, or a machine client with its bearer token: no cookie and, like a script, no CSRF header.
    const token = MACHINE_TOKENS[name] ?? null;
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    return {
      name,
      send: (method, url, payload, extra = {}) => injectFrom(deps, method, url, payload, { ...headers, ...extra }),
      renew: () => Promise.resolve(),
    };
  });
  for (const caller of callers) await caller.renew();
  return callers;
}
