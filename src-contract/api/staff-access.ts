import { z } from 'zod';

/**
 * Staff, referring doctors and IT staff sign in through the provider's identity provider
 * (docs/rules/staff-access.md): the browser gets an access token with MSAL and hands it to
 * POST /api/staff-access/session; the server verifies it and opens its own session, the httpOnly
 * cookie `__Host-portal_staff_session` (same attributes as the patient cookie).
 */

/** The __Host- prefix: the browser keeps it only when Secure, Path=/ and without Domain. */
export const STAFF_SESSION_COOKIE = '__Host-portal_staff_session';

/** The portal's staff roles; kioskAdmin is the IT staff who enroll and revoke kiosks. */
export const STAFF_ROLES = ['staff', 'admin', 'referrer', 'kioskAdmin'] as const;
export const StaffRoleSchema = z.enum(STAFF_ROLES);

/** Who may book for a patient and look patients up (docs/rules/booking.md#staff-bookings). */
export const STAFF_BOOKING_ROLES: readonly (typeof STAFF_ROLES)[number][] = ['staff', 'admin'];
export type StaffRole = z.infer<typeof StaffRoleSchema>;

/** A compact JWS: three base64url parts. Longer than any real access token is refused unread. */
export const StaffSignInRequestSchema = z.object({
  token: z
    .string()
    .max(16_384)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, 'expected a signed token (JWT)'),
});
export type StaffSignInRequest = z.infer<typeof StaffSignInRequestSchema>;

/** The signed-in user as the navigation shows them. */
export const StaffUserSchema = z.object({
  username: z.string(),
  organization: z.string().nullable(),
  /** The doctor's name, for a referring doctor the navigation names when there is no organization. */
  currentDoctor: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  userId: z.string(),
  roles: z.array(StaffRoleSchema),
});
export type StaffUser = z.infer<typeof StaffUserSchema>;
