/** What other modules may use of patient-access: the session guard their routes run first, and the session cookie helpers. */
export {
  refuseSession,
  requirePatientSession,
  requireSharedSession,
  signedInRoute,
  SESSION_REQUIRED_MESSAGE,
  type PatientSession,
} from './session-guard';
export { bookingSessionCheck, patientSessionOf, sharedSessionOf } from './access-checks';
export { clearedSessionCookie, readCookie, sessionCookie } from './cookie';
