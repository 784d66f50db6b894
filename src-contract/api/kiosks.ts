import { z } from 'zod';
import { BOOKING_KEY_PATTERN } from '../booking-code';
import { InstantSchema, isValidCalendarDate } from './booking';
import { multiLineText, singleLineText } from './text';

/**
 * Lobby kiosks (docs/rules/kiosk.md#enrollment): kiosk administrators add kiosks and issue one-time
 * enrollment codes; a kiosk enrolls with its code and then carries a revocable token (the
 * `__Host-portal_kiosk` cookie, HttpOnly) on every kiosk request; at the kiosk a patient is found by
 * last name and date of birth (the check-in identity request and response, docs/rules/kiosk.md#identity-check-and-kiosk-check-in).
 */

export const KIOSK_TOKEN_COOKIE = '__Host-portal_kiosk';
/** Eight characters from an alphabet without look-alikes, shown as XXXX-XXXX. */
export const ENROLLMENT_CODE_PATTERN = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}-?[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}$/;
export const ENROLLMENT_CODE_HOURS = 24;
/**
 * A kiosk checks in today's appointments (the clinic's day) and those starting within this many
 * minutes, so a patient who arrives before midnight for a list just after it is found.
 */
export const KIOSK_LOOKAHEAD_MINUTES = 120;

export const KIOSK_MESSAGES = {
  name: 'Give the kiosk a name of 1 to 80 characters, e.g. "Parramatta lobby 1".',
  code: 'Enter the 8-character enrollment code from the staff kiosk page, e.g. 7KQ3-M9XD.',
  lastName: 'Enter your last name.',
  dateOfBirth: 'Enter your date of birth.',
  bookingKey: 'This is not a booking code. Scan the code from your confirmation, or check in with your name.',
  oneWay: 'Send either lastName or bookingKey (from a scanned booking code) with dateOfBirth, not both.',
} as const;

export const KIOSK_STATES = ['PENDING', 'ENROLLED', 'REVOKED'] as const;

/** The kiosk app's last heartbeat as stored (docs/rules/kiosk.md#fleet); null for a kiosk that never sent one (a browser kiosk). */
export const KioskHealthSchema = z.object({
  at: z.string(),
  appVersion: z.string(),
  uptimeSeconds: z.number().int(),
  lastCrash: z.object({ at: z.string(), reason: z.string() }).nullable(),
  lastPatientActivityAt: z.string().nullable(),
  lastOfflineAt: z.string().nullable(),
});
export type KioskHealth = z.infer<typeof KioskHealthSchema>;

export const KioskSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  clinicSlug: z.string().nullable(),
  state: z.enum(KIOSK_STATES),
  enrolledAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  createdAt: z.string(),
  health: KioskHealthSchema.nullable(),
  /** Enrolled, and no request or heartbeat for longer than the list's silentAfterMinutes. */
  silent: z.boolean(),
});
export type Kiosk = z.infer<typeof KioskSchema>;

export const KioskListSchema = z.object({ kiosks: z.array(KioskSchema), silentAfterMinutes: z.number().int() });

export const NewKioskSchema = z.strictObject({
  name: singleLineText().trim().min(1, KIOSK_MESSAGES.name).max(80, KIOSK_MESSAGES.name),
  clinicSlug: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .nullable()
    .optional(),
});

export const KioskIdParamsSchema = z.strictObject({ kioskId: z.uuid() });

/** A code is shown once, to the administrator who asked for it. */
export const EnrollmentCodeSchema = z.object({ kiosk: KioskSchema, code: z.string(), expiresAt: z.string() });

export const EnrollRequestSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(ENROLLMENT_CODE_PATTERN, KIOSK_MESSAGES.code)),
});

/** What a kiosk knows about itself (never its token). */
export const KioskIdentitySchema = z.object({ name: z.string(), clinicSlug: z.string().nullable(), clinicName: z.string().nullable() });
export type KioskIdentity = z.infer<typeof KioskIdentitySchema>;

/**
 * Who is checking in: last name and date of birth, or the booking key of a scanned booking code
 * (src-contract/booking-code.ts) and date of birth (docs/rules/kiosk.md#identify-by-scanning).
 * Exactly one of lastName and bookingKey; each field refused with its own message.
 */
export const CheckInIdentityRequestSchema = z
  .strictObject({
    lastName: singleLineText().trim().min(1, KIOSK_MESSAGES.lastName).max(100, KIOSK_MESSAGES.lastName).optional(),
    bookingKey: z.string().regex(BOOKING_KEY_PATTERN, KIOSK_MESSAGES.bookingKey).optional(),
    dateOfBirth: z.string().refine(isValidCalendarDate, KIOSK_MESSAGES.dateOfBirth),
  })
  .superRefine((value, context) => {
    if ((value.lastName === undefined) === (value.bookingKey === undefined))
      context.addIssue({
        code: 'custom',
        path: [value.lastName === undefined ? 'lastName' : 'bookingKey'],
        message: KIOSK_MESSAGES.oneWay,
      });
  });
/** What the kiosk sends: the name path or the scanned-code path. */
export type CheckInIdentityRequest = { lastName: string; dateOfBirth: string } | { bookingKey: string; dateOfBirth: string };

/**
 * The booking keys of today's appointments that match (at this kiosk's clinic when
 * it has one); samePatient false when they belong to more than one patient record;
 * disabledReason when check-in cannot go ahead for them (null otherwise).
 */
export const CheckInIdentityResponseSchema = z.object({
  appointmentBookingKeys: z.array(z.string()),
  samePatient: z.boolean(),
  feedbackQuestionnaireAnswered: z.boolean(),
  disabledReason: z.enum(['CHECK_IN_DISABLED', 'ALREADY_CHECKED_IN', 'NOT_YET_OPEN']).nullable(),
});
export type CheckInIdentityResponse = z.infer<typeof CheckInIdentityResponseSchema>;

/**
 * POST /api/kiosk/heartbeat (kiosk token), sent by the kiosk app's main process every
 * HEARTBEAT_SECONDS (docs/rules/kiosk.md#fleet): what IT staff see on the staff kiosk page. No
 * patient data: the last patient activity is a time only.
 */
export const HEARTBEAT_SECONDS = 60;
export const KioskHeartbeatSchema = z.strictObject({
  appVersion: singleLineText().trim().min(1).max(40),
  uptimeSeconds: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86_400),
  lastCrash: z.strictObject({ at: InstantSchema, reason: multiLineText().trim().min(1).max(200) }).nullable(),
  lastPatientActivityAt: InstantSchema.nullable(),
  /** The last time the app showed its offline page (the portal was unreachable), or null. */
  lastOfflineAt: InstantSchema.nullable(),
});
export type KioskHeartbeat = z.infer<typeof KioskHeartbeatSchema>;
