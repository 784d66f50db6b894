/**
 * The role mapping IDENTITY_ROLE_MAP's default is read as (the demo accounts' Entra ID app roles,
 * src-server/config-identity.ts DEFAULT_ROLE_MAP), written out once for the tests that expect it.
 */
export const DEFAULT_ROLE_MAPPING = {
  roles: {
    'Portal.Staff': ['staff'],
    'Portal.Admin': ['admin'],
    'Portal.Referrer': ['referrer'],
    'Portal.KioskAdmin': ['kioskAdmin'],
  },
  groups: {},
};
