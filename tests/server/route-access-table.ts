import { STAFF_ROLES, type StaffRole } from '@contract/api/staff-access';

/**
 * Who may call each route the server registers (docs/rules/security.md#access-control). The
 * route matrix (route-access.test.ts) fails when the server has a route this table does not
 * name, or the table names a route the server no longer has; and it calls every route as every
 * kind of caller (CALLERS in route-access-matrix.ts: anonymous, a patient session of each type,
 * a staff session of each role, a machine client's bearer token) and proves each is let
 * through or refused as the class says.
 *
 * A new route: add one line `'METHOD /path/:param': <class>,` (HEAD is implied by GET): a class
 * name, or for a staff route `staffSession('staff', 'admin')` naming the roles it accepts. When its
 * path has a parameter not in ROUTE_PARAMS of route-access-matrix.ts, add a sample value there.
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
  /** Development outbox: only when enabled, and only from this machine (loopback): 404 otherwise. */
  | 'dev-loopback'
  /** The APPOINTMENT session for the booking in the path, or a staff session with staff or admin: 401 otherwise. */
  | 'appointment-session-or-staff'
  /**
   * As appointment-session-or-staff, or the booking receipt of the browser that made that booking
   * (cookie __Host-portal_booked; none of the matrix's callers holds one: confirmation.test.ts proves it).
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
}

export type Access = AccessClass | StaffSessionAccess;

/** A staff route's rule: the roles it accepts (staffRoute(anyOf) / requireStaffSession({ anyOf }) in the route). */
export function staffSession(...roles: [StaffRole, ...StaffRole[]]): StaffSessionAccess {
  return { kind: 'staff-session', roles };
}

/** A staff-only action on a patient's booking: staff and admin; a patient session gets 403. */
export const STAFF_NOT_PATIENT: StaffSessionAccess = { kind: 'staff-session', roles: ['staff', 'admin'], patientForbidden: true };

/** A route for anyone signed in as staff, of any role. */
export const ANY_STAFF_ROLE: StaffSessionAccess = { kind: 'staff-session', roles: STAFF_ROLES };

function attachmentRoutes(base: string, readers: AccessClass): Record<string, Access> {
  return {
    [`GET ${base}/response`]: readers,
    [`GET ${base}`]: readers,
    [`POST ${base}`]: readers,
    [`PUT ${base}/:attachmentId`]: readers,
    [`GET ${base}/:attachmentId/download`]: readers,
    [`GET ${base}/:attachmentId/view`]: readers,
    [`DELETE ${base}/:attachmentId`]: STAFF_NOT_PATIENT,
    [`POST ${base}/imported`]: STAFF_NOT_PATIENT,
    [`POST ${base}/:attachmentId/accept-referral-date`]: STAFF_NOT_PATIENT,
  };
}

export const ROUTE_ACCESS: Record<string, Access> = {
  // Platform
  'GET /api/docs': 'public',
  'GET /api/docs/json': 'public',
  'GET /api/health': 'public',
  'GET /api/captcha/challenge': 'public',

  // Configuration and texts
  'GET /api/config/bootstrap': 'public',
  // Embedding: the providers' script and the framed portal's question about its parent page
  'GET /embed.js': 'public',
  'GET /api/embed/parent-origin': 'public',
  'GET /api/config/body-figure': 'public',
  'GET /api/config/app': 'public',
  'GET /api/config/radiology': 'public',
  'GET /api/config/integration': 'public',
  'GET /api/config/theme': 'public',
  'GET /api/config/terms': 'public',
  'GET /api/config/environment': 'public',
  'GET /api/config/contact': 'public',
  'GET /api/assets/translations': 'public',
  'GET /api/assets/application/:name': 'public',

  // Booking (anonymous patients book; the hold id is the holder's secret)
  'GET /api/booking/catalogue': 'public',
  'GET /api/booking/clinics': 'public',
  'GET /api/booking/exams': 'public',
  'GET /api/booking/settings': 'public',
  'GET /api/booking/postcodes/:postcode': 'public',
  'GET /api/booking/availability': 'public',
  'GET /api/booking/availability/month': 'public',
  'POST /api/booking/appointments': 'public',
  'POST /api/booking/holds': 'public',
  'DELETE /api/booking/holds/:holdId': 'public',
  'POST /api/booking/booking-requests': 'public',
  'GET /api/booking/walk-in-exams': 'public',
  'GET /api/booking/form-details': 'public',
  'GET /api/booking/referring-organisations': 'public',

  // Patient sign-in (the session check answers 401 when not signed in: that is its answer)
  'GET /api/patient-access/session': 'public',
  'POST /api/patient-access/authenticate': 'public',
  'POST /api/patient-access/logout': 'public',
  'POST /api/patient-access/otp': 'sign-in-session',
  'POST /api/patient-access/otp/verify': 'sign-in-session',
  'POST /api/patient-access/keep-alive': 'patient-session',

  // Staff sign-in through the identity provider (the token is the credential; "who am I" needs the session)
  'POST /api/staff-access/session': 'public',
  'POST /api/staff-access/logout': 'public',
  'GET /api/staff-access/me': ANY_STAFF_ROLE,
  'POST /api/staff-access/keep-alive': ANY_STAFF_ROLE,

  // Patient lookup for a staff booking (docs/rules/booking.md#patient-lookup): staff and admin; referrer and kioskAdmin 403
  'POST /api/staff/patient-lookup': staffSession('staff', 'admin'),
  // Callback requests (docs/rules/callbacks.md): anyone asks (captcha and limits); staff and admin work the queue
  'POST /api/callback-requests': 'public',
  'GET /api/staff/callback-requests': staffSession('staff', 'admin'),
  'POST /api/staff/callback-requests/:id/called': staffSession('staff', 'admin'),
  // The booking team's queue of booking requests (docs/rules/booking.md#the-staff-queue)
  'GET /api/staff/booking-requests': staffSession('staff', 'admin'),
  'POST /api/staff/booking-requests/:bookingKey/handled': staffSession('staff', 'admin'),
  // E-mail preview (staff and admin; referrer and kioskAdmin 403)
  'GET /api/notifications/preview_translated_email': staffSession('staff', 'admin'),
  'GET /api/notifications/preview_translated_email/html': staffSession('staff', 'admin'),
  'GET /api/notifications/preview_options': staffSession('staff', 'admin'),
  'POST /api/notifications/preview_translated_email/send_test': staffSession('staff', 'admin'),
  // One-click unsubscribe (docs/rules/notifications.md#unsubscribe): the signed token in the query is the credential,
  // no session (a mail provider's RFC 8058 POST carries no cookie); an altered or foreign token is 400 for everyone
  'GET /api/notifications/unsubscribe': 'public',
  'POST /api/notifications/unsubscribe': 'public',
  'POST /api/notifications/unsubscribe/resubscribe': 'public',

  // Self-service on an appointment booking
  'GET /api/appointments/:bookingKey': 'appointment-session',
  'GET /api/appointments/:bookingKey/confirmation': 'booking-receipt-or-appointment-session-or-staff',
  'GET /api/appointments/:bookingKey/calendar.ics': 'booking-receipt-or-appointment-session-or-staff',
  'GET /api/appointments/:bookingKey/can-change': 'appointment-session',
  'POST /api/appointments/:bookingKey/cancel': 'appointment-session',
  'POST /api/appointments/:bookingKey/confirm': 'appointment-session',
  'GET /api/appointments/:bookingKey/consent-forms': 'appointment-session',
  'PUT /api/appointments/:bookingKey/consent-forms/:id': 'appointment-session',
  // Consent signatures as staff read them (the drawn PNG too): staff and admin, never the patient
  'GET /api/staff/appointments/:bookingKey/consents': staffSession('staff', 'admin'),
  'GET /api/staff/appointments/:bookingKey/consents/:formId/signature.png': staffSession('staff', 'admin'),
  'POST /api/appointments/:bookingKey/reschedule': 'appointment-session',
  'POST /api/appointments/:bookingKey/request-reschedule': 'appointment-session',
  'POST /api/appointments/:bookingKey/details-change-request': 'appointment-session',
  'POST /api/appointments/:bookingKey/unsubscribe': 'appointment-session',

  // Booking requests
  'GET /api/booking-requests/:bookingKey': 'booking-request-session',
  'POST /api/booking-requests/:bookingKey/cancel': 'booking-request-session',
  'POST /api/booking-requests/:bookingKey/chat-service': 'booking-request-session',
  'GET /api/booking-requests/:bookingKey/referrals/:id/download': 'booking-request-session',
  'PUT /api/booking-requests/:bookingKey/status': 'staff-token',
  // Results delivery by the RIS and PACS (docs/rules/results.md#delivery)
  'POST /api/integration/results': 'integration-token',
  'POST /api/integration/results/:accessionNumber/images': 'integration-token',
  // The patient's result page (docs/rules/results.md#result-page) and the image viewer link
  'GET /api/results/:bookingKey': 'results-session',
  'GET /api/results/:bookingKey/report.pdf': 'results-session',
  'POST /api/results/:bookingKey/patient-match': 'portal-session',
  'GET /api/results/:bookingKey/history': 'results-session',
  'GET /api/results/:bookingKey/history/:resultId/report.pdf': 'results-session',
  // The provider's glossary of radiology terms (docs/rules/results.md#glossary): not patient data
  'GET /api/results-glossary': 'public',
  'GET /api/image_viewer': 'image-viewer-link',
  'POST /api/image_viewer/direct': 'image-viewer-link',
  'POST /api/image_viewer/generate': 'image-viewer-link',
  'GET /api/image_viewer_link/report': 'image-viewer-link',
  'GET /api/image_viewer_link/report.pdf': 'image-viewer-link',
  // Report-quality feedback (docs/rules/referrers.md#report-quality-feedback): the referrer's imsec
  // (the matrix calls ?imsec; ?pacsAppointmentId needs a referrer's staff session, tested in
  // tests/server/modules/referrer-feedback), and what staff read of it.
  'GET /api/image_viewer_link/questionnaires': 'image-viewer-link',
  'POST /api/image_viewer_link/questionnaires': 'image-viewer-link',
  'GET /api/staff/referrer-feedback': staffSession('staff', 'admin'),
  'GET /api/staff/referrer-feedback.csv': staffSession('staff', 'admin'),
  // The referring doctor's report list (docs/rules/referrers.md#referrer-report-list): referrers only
  'GET /api/referrer/reports': staffSession('referrer'),
  // Sharing (docs/rules/results.md#sharing): the patient's shares, and what a contact reads
  'GET /api/results/:bookingKey/shares': 'results-session',
  'POST /api/results/:bookingKey/shares': 'results-session',
  'POST /api/results/:bookingKey/shares/:id/revoke': 'results-session',
  'POST /api/patient-access/shared': 'public',
  'GET /api/shared-results': 'shared-session',
  'GET /api/shared-results/:resultId/report.pdf': 'shared-session',
  // The demo image viewer (src-server/dev-pacs): a demo viewer link (signed link, ?token=) is the credential
  'GET /api/demo-viewer/study': 'image-viewer-link',
  'GET /api/demo-viewer/images/:index': 'image-viewer-link',

  // Check-in (docs/rules/check-in.md): the booking's patient or staff
  'GET /api/secured/appointments/:bookingKey/check-in/:appointmentSlug': 'appointment-session-or-staff',
  'GET /api/secured/appointments/:bookingKey/check-in/:appointmentSlug/checklist': 'appointment-session-or-staff',
  'POST /api/secured/appointments/:bookingKey/check-in/:appointmentSlug/prepare': 'appointment-session-or-staff',
  'POST /api/secured/appointments/:bookingKey/check-in/:appointmentSlug': 'appointment-session-or-staff',
  // Referring-doctor search of the check-in form (docs/rules/check-in.md#referring-doctors)
  'GET /api/secured/appointments/:bookingKey/doctor_search/:text': 'appointment-session-or-staff',
  // Kiosks (docs/rules/kiosk.md#enrollment): kiosk administrators manage them; a kiosk enrolls with a code, then carries its token
  'GET /api/staff/kiosks': staffSession('kioskAdmin', 'admin'),
  'POST /api/staff/kiosks': staffSession('kioskAdmin', 'admin'),
  'POST /api/staff/kiosks/:kioskId/enrollment-code': staffSession('kioskAdmin', 'admin'),
  'POST /api/staff/kiosks/:kioskId/revoke': staffSession('kioskAdmin', 'admin'),
  'POST /api/kiosk/enroll': 'public',
  'GET /api/kiosk/me': 'kiosk-token',
  'POST /api/kiosk/heartbeat': 'kiosk-token',
  'POST /api/kiosk/check-in/identity': 'kiosk-token',
  'POST /api/kiosk/check-in/:bookingKey/:appointmentSlug': 'kiosk-and-appointment-session',
  // Attachments (docs/rules/attachments.md#who-may-do-what): the booking's patient or staff; deleting is staff only
  ...attachmentRoutes('/api/secured/appointments/:bookingKey/attachments', 'appointment-session-or-staff'),
  ...attachmentRoutes('/api/secured/booking_requests/:bookingKey/attachments', 'booking-request-session-or-staff'),
  // While booking, the temporary key is the credential (unknown or expired: 404)
  ...attachmentRoutes('/api/booking-keys/:bookingKey/attachments', 'public'),
  'GET /api/secured/booking_requests/:bookingKey/download': 'booking-request-session-or-staff',

  // Questionnaires: before booking anyone (under a temporary key); after booking the booking's session
  'GET /api/questionnaires': 'public',
  'POST /api/questionnaires/booking-keys': 'public',
  'POST /api/questionnaires/temporary-answers': 'public',
  'POST /api/questionnaires/re-key': 'public',
  'POST /api/questionnaires/outcomes': 'public',
  'GET /api/questionnaires/autocomplete/:source': 'public',
  'GET /api/questionnaires/appointment-slugs/:appointmentSlug': 'appointment-session',
  'GET /api/questionnaires/appointments/:bookingKey': 'appointment-session',
  'POST /api/questionnaires/appointments/:bookingKey/answers': 'appointment-session',
  'POST /api/questionnaires/appointments/:bookingKey/pain-score': 'appointment-session',
  'GET /api/questionnaires/booking-requests/:bookingKey': 'booking-request-session',
  'POST /api/questionnaires/booking-requests/:bookingKey/answers': 'booking-request-session',

  // Development outbox
  'GET /api/dev/outbox': 'dev-loopback',
  'GET /api/dev/outbox/:id': 'dev-loopback',
  'GET /dev/outbox': 'dev-loopback',
  'GET /dev/outbox/:id': 'dev-loopback',
  'GET /dev/outbox/:id/html': 'dev-loopback',
  'GET /dev/outbox/:id/attachments/:index': 'dev-loopback',
};
