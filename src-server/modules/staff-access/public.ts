/** What other modules may use of staff-access: the staff session guard their routes run first. */
export {
  requireStaffSession,
  staffRoute,
  staffSessionIfAny,
  staffSessionOf,
  checkedStaffSessionOf,
  checkStaffAccess,
  STAFF_ONLY_MESSAGE,
  STAFF_ROLE_REQUIRED_MESSAGE,
  STAFF_SESSION_REQUIRED_MESSAGE,
  type StaffSession,
} from './session-guard';
export { subjectRef } from './service';
/** The access token check, for other APIs that accept the same identity provider's tokens (the FHIR API). */
export { createTokenVerifier, KeySetUnavailableError, type TokenVerifierOptions } from './token-verifier';
