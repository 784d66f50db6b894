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
