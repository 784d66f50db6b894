/** What other modules may use of patient-access: the session guard their routes run first. */
export {
  anySessionOf,
  refuseSession,
  requirePatientSession,
  signedInRoute,
  SESSION_REQUIRED_MESSAGE,
  type PatientSession,
} from './session-guard';
