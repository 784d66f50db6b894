import type { FastifyRequest, FastifySchema } from 'fastify';
import { STAFF_SESSION_COOKIE, type StaffRole } from '@contract/api/staff-access';
import { forbidden, unauthorized, type AppError } from '../../platform/errors';
import { accessKindOf, type RouteAccess } from '../../platform/route-access';
import '../../platform/security-audit';
import { readCookie } from '../patient-access/public';
import type { StaffSessionRow } from './repository';
import { sha256Hex, subjectRef } from './service';

/**
 * The guard other modules call before a staff action (docs/rules/staff-access.md#session-guard):
 *
 *   const session = await requireStaffSession(request, { anyOf: ['staff', 'admin'] });
 *
 * It answers the session when the request's `__Host-portal_staff_session` cookie names a live
 * staff session holding one of the roles; otherwise 401 (no session, ended, unknown cookie, or
 * staff sign-in not configured on this server) or 403 (signed in without one of the roles).
 * Every refusal goes to the audit log (rate limited) naming the person by a sha256 prefix of
 * their subject, or the cookie by a sha256 prefix of its token; never the token itself.
 * A patient session is a different cookie and never counts.
 */

export type StaffSession = StaffSessionRow;

/** What registerStaffAccessRoutes installs on the server (app.staffSessions). */
export interface StaffSessionResolver {
  /** The live session of a cookie token, refreshing its idle timer; null when there is none. */
  current(cookieToken: string | null): Promise<StaffSession | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    staffSessions?: StaffSessionResolver;
  }
}

export const STAFF_SESSION_REQUIRED_MESSAGE = 'Please sign in with your organisation account.';
export const STAFF_ROLE_REQUIRED_MESSAGE = 'Your account may not do that.';

/** The session a staff route's access check found, for its handler. */
const checked = new WeakMap<FastifyRequest, StaffSession>();

async function refuse(request: FastifyRequest, reason: string, status: 401 | 403, actor?: string): Promise<AppError> {
  await request.server.securityAudit.refused(request, { reason: `staff_session_${reason}`, ...(actor === undefined ? {} : { actor }) });
  return status === 401 ? unauthorized(STAFF_SESSION_REQUIRED_MESSAGE) : forbidden(STAFF_ROLE_REQUIRED_MESSAGE);
}

/**
 * @param options.signedOutIsNormal - the "who am I?" call: a browser without a staff cookie
 *   asking it is the ordinary start of a sign-in, not a refusal worth an audit row.
 */
export async function requireStaffSession(
  request: FastifyRequest,
  wanted: { anyOf: readonly StaffRole[] },
  options: { signedOutIsNormal?: boolean } = {},
): Promise<StaffSession> {
  const cookieToken = readCookie(request.headers.cookie, STAFF_SESSION_COOKIE);
  const resolver = request.server.staffSessions;
  const session = resolver === undefined ? null : await resolver.current(cookieToken);
  if (session === null) {
    if (cookieToken === null && options.signedOutIsNormal === true) throw unauthorized(STAFF_SESSION_REQUIRED_MESSAGE);
    const actor = cookieToken === null ? undefined : `staff_session:${sha256Hex(cookieToken).slice(0, 16)}`;
    throw await refuse(request, cookieToken === null ? 'no_session' : 'ended_or_unknown', 401, actor);
  }
  if (!session.roles.some((role) => wanted.anyOf.includes(role))) {
    throw await refuse(request, 'wrong_role', 403, subjectRef(session.subject));
  }
  return session;
}

export const STAFF_ONLY_MESSAGE = 'Only clinic staff can do this.';

/**
 * The check of every route declared with a staff session (src-server/platform/route-access.ts):
 * a live staff session holding one of the route's roles, which staffSessionOf(request) then gives
 * the handler. A route closed to patients (patientForbidden: deleting a document) answers a
 * signed-in patient without a staff session 403, not 401.
 */
export async function checkStaffAccess(request: FastifyRequest, access: RouteAccess): Promise<void> {
  if (typeof access === 'string' || access.kind !== 'staff-session')
    throw new Error(`[staff-access] checkStaffAccess: '${accessKindOf(access)}' is no staff session`);
  if (access.patientForbidden === true && (await staffSessionIfAny(request)) === null) {
    if ((await request.server.patientSessions?.current(request)) != null) {
      await request.server.securityAudit.refused(request, { reason: 'staff_session_patient_forbidden' });
      throw forbidden(STAFF_ONLY_MESSAGE);
    }
  }
  const options = { signedOutIsNormal: access.signedOutIsNormal === true };
  checked.set(request, await requireStaffSession(request, { anyOf: access.roles }, options));
}

/** The session a staff route's access check found, or null on a route that checks none. */
export function checkedStaffSessionOf(request: FastifyRequest): StaffSession | null {
  return checked.get(request) ?? null;
}

/** The session a staffRoute checked (throws when the route has no staff check: a programming error). */
export function staffSessionOf(request: FastifyRequest): StaffSession {
  const session = checked.get(request);
  if (session === undefined) throw new Error('[staff-access] staffSessionOf: the route has no staff session check');
  return session;
}

/**
 * The options of a route for signed-in staff with one of `anyOf`: the route declares that access
 * (checked first, checkStaffAccess), and is listed under `tags` in the OpenAPI document. The handler reads the session with
 * staffSessionOf(request).
 *
 *   const staffOnly = staffRoute(['staff', 'admin'], ['attachments']);
 *   api.delete('/api/attachments/:id', staffOnly({ summary, params, response }), handler);
 */
export function staffRoute(anyOf: readonly StaffRole[], tags: string[]) {
  const access: RouteAccess = { kind: 'staff-session', roles: anyOf };
  return <Schema extends FastifySchema>(schema: Schema) => ({ config: { access }, schema: { tags, ...schema } });
}

/**
 * The request's live staff session, or null: for a route anyone may call whose answer a staff
 * session changes (a booking on a patient's behalf). Never refuses and writes no audit row; a
 * route only staff may call uses requireStaffSession or staffRoute instead.
 */
export async function staffSessionIfAny(request: FastifyRequest): Promise<StaffSession | null> {
  const resolver = request.server.staffSessions;
  if (resolver === undefined) return null;
  return resolver.current(readCookie(request.headers.cookie, STAFF_SESSION_COOKIE));
}
