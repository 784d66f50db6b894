// The portal as the local identity provider's client, apart from the provider's configuration
// (configuration.ts), so that what the portal needs at start does not load oidc-provider.

/** The portal's public (single-page application) client: no secret, PKCE S256 only. */
export const PORTAL_CLIENT_ID = 'portal-web';

/** The portal API: the audience of every access token this provider issues. */
export const PORTAL_API_RESOURCE = 'api://portal';

/**
 * The one delegated scope of the portal API, spelled the way MSAL asks for an Entra ID API scope
 * (`<application id URI>/<scope>`). The access token also carries the short name in `scp`.
 */
export const PORTAL_API_SCOPE = `${PORTAL_API_RESOURCE}/access_as_user`;

/** The pages of the portal that complete a sign-in; each is a registered redirect URI. */
export const PORTAL_REDIRECT_PATHS = ['/auth/redirect', '/image-viewer-access', '/referrer-access'] as const;

/** The demo RIS: a confidential client with the client credentials grant only, for the FHIR API. */
export const RIS_CLIENT_ID = 'demo-ris';

/** The FHIR resource types whose SMART system scopes the demo provider grants (the FHIR API's, present and planned). */
const FHIR_SCOPE_TYPES = [
  '*',
  'Appointment',
  'Binary',
  'DiagnosticReport',
  'DocumentReference',
  'HealthcareService',
  'Location',
  'Patient',
  'Practitioner',
  'QuestionnaireResponse',
  'Schedule',
  'Slot',
] as const;
const FHIR_SCOPE_PERMISSIONS = ['rs', 'r', 's', 'c', 'cu', 'cruds', 'read', 'write'] as const;

/** Every system scope a client may get for the FHIR API, space-separated (SMART v2, and v1's read and write). */
export const FHIR_SCOPES = FHIR_SCOPE_TYPES.flatMap((type) =>
  FHIR_SCOPE_PERMISSIONS.map((permission) => `system/${type}.${permission}`),
).join(' ');
