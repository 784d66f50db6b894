/** What other modules may use of patient-access: the session guard their routes run first, and the session cookie helpers. */
export {
  anySessionOf,
  refuseSession,
  requirePatientSession,
  requireSharedSession,
  signedInRoute,
  SESSION_REQUIRED_MESSAGE,
  type PatientSession,
} from './session-guard';
export { clearedSessionCookie, readCookie, sessionCookie } from './cookie';
