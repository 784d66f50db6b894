/**
 * The kiosk's own readable cookies (expire 2030-12-31, path /; docs/rules/kiosk.md#kiosk-check-in-in-the-web-app). Ending a patient's
 * session keeps them, in the page (src-web/features/kiosk-idle) and in the kiosk app's main
 * process. No imports: the web app's entry chunk reads it.
 */
export const KIOSK_SPEC_COOKIES = ['kioskIdentity', 'patientKioskIdentity', 'postalCodeLocationId'] as const;
