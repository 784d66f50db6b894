import type { ServerResponse } from 'node:http';
import { json, readJsonBody, type RouteHandler } from '../../helpers/api-server';

export const BOOKING_KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
export const DATE_OF_BIRTH = '1991-03-14';
export const CODE = '482913';
/** A result share link's token (43 base64url characters). */
export const SHARE_TOKEN = 'Sh4reT0ken_abcdefghijklmnopqrstuvwxyz012345';

export interface SignInServerOptions {
  otpRequired?: boolean;
  otpChannels?: ('EMAIL' | 'SMS')[];
  /** Answer of POST /otp: seconds before the next send. */
  resendAfterSeconds?: number;
  /** Wrong dates of birth before the 429 (the server's per-key limit). */
  maxFailures?: number;
  /** The session cookie is dropped (third-party cookies blocked): the session check answers 401. */
  dropCookie?: boolean;
  /** Already signed in when the page opens. */
  signedIn?: boolean;
  /** The type of the session a signed-in browser holds (default APPOINTMENT). */
  sessionType?: 'APPOINTMENT' | 'BOOKING_REQUEST' | 'APPOINTMENT_RESULTS' | 'PATIENT_PORTAL';
  /** Overrides for single routes. */
  answers?: Partial<Record<'authenticate' | 'shared' | 'otp' | 'verify' | 'session', (response: ServerResponse) => void>>;
  roleTranslations?: string;
}

export interface SignInServer {
  routes: Record<string, RouteHandler>;
  bodies: { path: string; body: unknown }[];
  sessionQueries: string[];
}

/**
 * A stand-in for the sign-in API (src-contract/api/patient-access.ts), over real HTTP: the date of birth
 * opens a session (a flag here, the cookie on the real server), the code completes it.
 */
export function signInServer(options: SignInServerOptions = {}): SignInServer {
  const otpRequired = options.otpRequired ?? true;
  const channels = options.otpChannels ?? ['EMAIL'];
  const roleTranslations = options.roleTranslations ?? '{}';
  const bodies: SignInServer['bodies'] = [];
  const sessionQueries: string[] = [];
  let stage: 'none' | 'dob_verified' | 'authenticated' = options.signedIn ? 'authenticated' : 'none';
  let failures = 0;
  // The session is for the type the date of birth was given for (an appointment or a booking request).
  const identity: { isAuthenticated: true; bookingKey: string; type: string; roleTranslations: string } = {
    isAuthenticated: true,
    bookingKey: BOOKING_KEY,
    type: options.sessionType ?? 'APPOINTMENT',
    roleTranslations,
  };

  const post = (
    name: 'authenticate' | 'shared' | 'otp' | 'verify',
    handle: (body: unknown, response: ServerResponse) => void,
  ): RouteHandler => {
    return (request, response) => {
      void readJsonBody(request).then((body) => {
        bodies.push({ path: name, body });
        const override = options.answers?.[name];
        if (override) override(response);
        else handle(body, response);
      });
    };
  };

  /** 429 once the attempts are used up; `maxAttempts` names the message the page shows for it. */
  const tooManyAttempts = (response: ServerResponse, maxAttempts: string) =>
    json(response, 429, { code: 'max_attempts_reached', message: 'Too many attempts.', details: { maxAttempts } });
  /** A date of birth (or key) that does not match: 401, and one attempt used. */
  const noMatch = (response: ServerResponse) => {
    failures += 1;
    json(response, 401, { code: 'authentication_failed', message: 'The details do not match our records.' });
  };

  const routes: Record<string, RouteHandler> = {
    'GET /api/patient-access/session': (request, response) => {
      sessionQueries.push(request.url ?? '');
      const override = options.answers?.session;
      if (override) return override(response);
      // A session is for one booking key and one type (docs/rules/patient-access.md#sessions).
      const query = new URL(request.url ?? '/', 'http://test').searchParams;
      const same = query.get('bookingKey') === identity.bookingKey && (query.get('type') ?? identity.type) === identity.type;
      if (stage === 'authenticated' && !options.dropCookie && same) return json(response, 200, identity);
      json(response, 401, { code: 'unauthorized', message: 'Please sign in.' });
    },
    'POST /api/patient-access/authenticate': post('authenticate', (body, response) => {
      const request = body as { bookingKey: string; dateOfBirth: string; type?: string };
      if (failures >= (options.maxFailures ?? 5)) return tooManyAttempts(response, 'max_attempts_reached');
      if (request.bookingKey !== BOOKING_KEY || request.dateOfBirth !== DATE_OF_BIRTH) return noMatch(response);
      identity.type = request.type ?? 'APPOINTMENT';
      stage = otpRequired ? 'dob_verified' : 'authenticated';
      json(response, 200, { otpRequired, otpChannels: otpRequired ? channels : [], roleTranslations });
    }),
    // A contact's sign-in with a share link: the patient's date of birth; the code always follows.
    'POST /api/patient-access/shared': post('shared', (body, response) => {
      const request = body as { shareToken: string; dateOfBirth: string };
      if (failures >= (options.maxFailures ?? 5)) return tooManyAttempts(response, 'max_attempts_reached_shared');
      if (request.shareToken !== SHARE_TOKEN || request.dateOfBirth !== DATE_OF_BIRTH) return noMatch(response);
      identity.type = 'APPOINTMENT_RESULTS';
      stage = 'dob_verified';
      json(response, 200, { otpRequired: true, otpChannels: ['EMAIL'], roleTranslations });
    }),
    'POST /api/patient-access/otp': post('otp', (body, response) => {
      if (stage !== 'dob_verified' || options.dropCookie) return json(response, 401, { code: 'unauthorized', message: 'Please sign in.' });
      const channel = (body as { channel: string }).channel;
      json(response, 202, {
        resendAfterSeconds: options.resendAfterSeconds ?? 5,
        destination: channel === 'SMS' ? '*******006' : 'l***@example.com',
      });
    }),
    'POST /api/patient-access/otp/verify': post('verify', (body, response) => {
      if (stage !== 'dob_verified') return json(response, 401, { code: 'unauthorized', message: 'Please sign in.' });
      if ((body as { code: string }).code !== CODE) return json(response, 401, { code: 'otp_invalid', message: 'The code is not right.' });
      stage = 'authenticated';
      json(response, 200, identity);
    }),
    'POST /api/patient-access/logout': (_request, response) => {
      stage = 'none';
      response.writeHead(204).end();
    },
  };
  return { routes, bodies, sessionQueries };
}

/** An error answer for the overrides. */
export function answer(status: number, body: unknown): (response: ServerResponse) => void {
  return (response) => json(response, status, body);
}
