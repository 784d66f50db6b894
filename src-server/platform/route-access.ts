import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STAFF_ROLES, type StaffRole } from '@contract/api/staff-access';

/**
 * Who may call a route, declared on the route itself as `config: { access }`
 * (docs/rules/security.md#access-control). The server refuses to start when a route declares
 * none, and the route matrix (tests/server/route-access.test.ts) calls every registered route as
 * every kind of caller and proves each is let through or refused as its declaration says.
 */
export type AccessClass =
  /** Anyone. */
  | 'public'
  /** The session of a sign-in still under way (date of birth given, one-time password not yet): 401 without. */
  | 'sign-in-session'
  /** A fully signed-in patient session of type APPOINTMENT for the booking in the path: 401 otherwise. */
  | 'appointment-session'
  /** A fully signed-in patient session of type BOOKING_REQUEST for the booking request in the path: 401 otherwise. */
  | 'booking-request-session'
  /** Authorization: Bearer <staff token> whose sha256 is in STAFF_API_TOKEN_SHA256: 403 otherwise (a staff session is not enough). */
  | 'staff-token'
  /** Authorization: Bearer <integration token> whose sha256 is in INTEGRATION_API_TOKEN_SHA256 (the RIS and PACS): 403 otherwise. */
  | 'integration-token'
  /**
   * GET /metrics: Authorization: Bearer <token> whose sha256 is in METRICS_TOKEN_SHA256 (the
   * Prometheus scraper's): 403 otherwise, and 404 for everyone while none is configured.
   */
  | 'metrics-token'
  /**
   * The SMS provider's inbound webhook: Authorization: Bearer <token> whose sha256 is in
   * SMS_INBOUND_TOKEN_SHA256: 403 otherwise, and 404 for everyone while none is configured.
   */
  | 'sms-provider-token'
  /** Development outbox: only when enabled, and only from this machine (loopback): 404 otherwise. */
  | 'dev-loopback'
  /** The APPOINTMENT session for the booking in the path, or a staff session with staff or admin: 401 otherwise. */
  | 'appointment-session-or-staff'
  /**
   * As appointment-session-or-staff, or the booking receipt of the browser that made that booking
   * (cookie __Host-portal_booked).
   */
  | 'booking-receipt-or-appointment-session-or-staff'
  /** The BOOKING_REQUEST session for the request in the path, or a staff session with staff or admin: 401 otherwise. */
  | 'booking-request-session-or-staff'
  /** A live kiosk token (cookie __Host-portal_kiosk or Authorization: Kiosk): 401 otherwise. */
  | 'kiosk-token'
  /** A live kiosk token and the APPOINTMENT session for the booking in the path (a patient at a kiosk): 401 otherwise. */
  | 'kiosk-and-appointment-session'
  /** A fully signed-in APPOINTMENT_RESULTS or PATIENT_PORTAL session for the booking in the path (always with the code): 401 otherwise. */
  | 'results-session'
  /** A fully signed-in PATIENT_PORTAL session for the booking in the path (always with the code): 401 otherwise. */
  | 'portal-session'
  /** A live image viewer link (imsec) in the request is the credential; no session opens it: 403 otherwise. */
  | 'image-viewer-link'
  /** A contact's session opened with a result share link that still stands (401 otherwise; 410 once revoked or expired). */
  | 'shared-session'
  /** Any fully signed-in patient session (every sign-in type, a contact's too, also at a kiosk): 401 otherwise. */
  | 'patient-session';

/**
 * A live staff session (cookie __Host-portal_staff_session from the provider's identity
 * provider, docs/rules/staff-access.md) holding one of `roles`: 401 without a staff session
 * (a patient session is none), 403 with a session holding none of them.
 */
export interface StaffSessionAccess {
  kind: 'staff-session';
  roles: readonly StaffRole[];
  /** 403 instead of 401 for a patient session: patients may never do this (deleting a document). */
  patientForbidden?: boolean;
  /** A "who am I?" probe: a browser without a staff session asking is no refusal worth an audit row. */
  signedOutIsNormal?: boolean;
}

/** What a FHIR client may do with one resource type: read by id, search, or write (create or update). */
export type FhirInteraction = 'read' | 'search' | 'write';

/**
 * A FHIR R4 route (/fhir/R4, src-server/modules/fhir/): Authorization: Bearer <access token> from
 * the configured identity provider, for the FHIR audience, with a scope granting `interaction` on
 * `resource` (SMART v2 `system/Location.rs`, `system/*.rs`; v1 `system/Location.read`): 401 with
 * WWW-Authenticate without a valid token, 403 when its scopes do not grant it.
 */
export interface FhirScopeAccess {
  kind: 'fhir-scope';
  resource: string;
  interaction: FhirInteraction;
}

export type RouteAccess = AccessClass | StaffSessionAccess | FhirScopeAccess;

/** What a check is defined for: an access class, a staff session or a FHIR scope (the details come from the route). */
export type AccessKind = AccessClass | StaffSessionAccess['kind'] | FhirScopeAccess['kind'];

/** Lets the request through (resolving) or throws the refusal (401, 403, 404...), after auditing it. */
export type AccessCheck = (request: FastifyRequest, access: RouteAccess) => Promise<void>;

export function accessKindOf(access: RouteAccess): AccessKind {
  return typeof access === 'string' ? access : access.kind;
}

/** A staff route's rule: the roles it accepts. */
export function staffSession(...roles: [StaffRole, ...StaffRole[]]): StaffSessionAccess {
  return { kind: 'staff-session', roles };
}

/** A FHIR route's rule: the resource type and the interaction its scope must grant. */
export function fhirScope(resource: string, interaction: FhirInteraction): FhirScopeAccess {
  return { kind: 'fhir-scope', resource, interaction };
}

/** A staff-only action on a patient's booking: staff and admin; a patient session gets 403. */
export const STAFF_NOT_PATIENT: StaffSessionAccess = { kind: 'staff-session', roles: ['staff', 'admin'], patientForbidden: true };

/** A route for anyone signed in as staff, of any role. */
export const ANY_STAFF_ROLE: StaffSessionAccess = { kind: 'staff-session', roles: STAFF_ROLES };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (route-access.ts); every route declares it. */
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Each registered route as 'METHOD /path' (HEAD left out where GET implies it) with its declared access. */
    readonly routeAccess: ReadonlyMap<string, RouteAccess>;
    /** How one kind of access is checked: defined once, by the module that owns the credential. */
    defineAccessCheck(kind: Exclude<AccessKind, 'public'>, check: AccessCheck): void;
  }
}

/**
 * The one place access is applied. It records each route's declared access as the route is
 * registered, and fails the registration (so the start) of a route that declares none: an
 * undeclared route would otherwise be open by accident. Then, for every request, one onRequest
 * hook runs the check of the route's access before the body is read. The server does not become
 * ready while a declared kind has no check.
 *
 * Call it before any route is registered and after the CSRF guard, so a cross-site request is
 * refused as such first.
 */
export function registerRouteAccess(app: FastifyInstance): void {
  const declared = new Map<string, RouteAccess>();
  const checks = new Map<AccessKind, AccessCheck>();
  app.decorate('routeAccess', declared);
  app.decorate('defineAccessCheck', (kind: Exclude<AccessKind, 'public'>, check: AccessCheck) => {
    if (checks.has(kind)) throw new Error(`[route-access] the check of '${kind}' is defined twice`);
    checks.set(kind, check);
  });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = route.config?.access;
    for (const method of methods) {
      // Fastify adds HEAD to every GET route itself; it is the GET route's twin.
      if (method === 'HEAD' && (methods.includes('GET') || declared.has(`GET ${route.url}`))) continue;
      if (access === undefined) throw new Error(`[route-access] ${method} ${route.url} declares no access (config.access)`);
      declared.set(`${method} ${route.url}`, access);
    }
  });
  app.addHook('onReady', async () => {
    for (const [route, access] of declared) {
      const kind = accessKindOf(access);
      if (kind !== 'public' && !checks.has(kind)) throw new Error(`[route-access] nothing checks '${kind}' (declared by ${route})`);
    }
  });
  app.addHook('onRequest', async (request) => {
    // No route matched (the 404 handler) or an anonymous route: nothing to check.
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    const check = checks.get(accessKindOf(access));
    if (check === undefined) throw new Error(`[route-access] nothing checks '${accessKindOf(access)}'`);
    await check(request, access);
  });
}
