import type { StaffUser } from '@contract/api/staff-access';

/** Signed-in people as GET /api/staff-access/me answers them (docs/rules/staff-access.md). */
export const STAFF_USER: StaffUser = {
  username: 'sam.staff@demo-radiology.example',
  organization: 'Harbour & Range Radiology',
  currentDoctor: null,
  userId: 'staff-1',
  roles: ['staff'],
};

export const REFERRER_USER: StaffUser = {
  username: 'dr.riley.referrer@harbour-medical.example',
  organization: null,
  currentDoctor: { firstName: 'Riley', lastName: 'Referrer' },
  userId: 'referrer-1',
  roles: ['referrer'],
};

/** The app settings of a portal that signs staff in itself, through an OIDC identity provider. */
export const STAFF_IDENTITY_APP = {
  identityClientId: 'portal-web',
  identityAuthority: 'https://login.example.test/tenant',
  identityScope: 'api://portal/access_as_user',
  identityProtocolMode: 'OIDC',
} as const;

/** Every staff tool an administrator is given, in the order the portal lists them (docs/rules/staff-access.md#staff-home). */
export const ADMIN_TOOL_NAMES = [
  'Book for a patient',
  'Callback requests',
  'Confirmations',
  'Booking requests',
  'Screening reviews',
  'E-mail preview',
  'Referrer feedback',
  'Lobby kiosks',
  'Admin panel',
] as const;
