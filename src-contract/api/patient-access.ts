import { z } from 'zod';
import { isValidCalendarDate } from './booking';

/**
 * Patient sign-in (docs/rules/patient-access.md). A session is the httpOnly
 * cookie `__Host-portal_session`; it belongs to one booking key and one subject type and is either
 * waiting for a one-time password (dob_verified) or fully authenticated.
 */

/**
 * The __Host- prefix makes the browser accept the cookie only when it is Secure, has Path=/ and
 * no Domain: no sibling subdomain or plain-HTTP page can set or shadow it.
 */
export const PATIENT_SESSION_COOKIE = '__Host-portal_session';
/** Six digits, exactly. */
export const OTP_LENGTH = 6;

/**
 * APPOINTMENT and BOOKING_REQUEST open the booking's own page. APPOINTMENT_RESULTS opens the
 * appointment's result (/appointments/{key}/result, from the results e-mail) and PATIENT_PORTAL the
 * patient's results and history (/appointments/{key}/result/patient): both always need the
 * one-time code, whatever the provider's otpRequired.
 */
export const SIGN_IN_TYPES = ['APPOINTMENT', 'BOOKING_REQUEST', 'APPOINTMENT_RESULTS', 'PATIENT_PORTAL'] as const;
export const SignInTypeSchema = z.enum(SIGN_IN_TYPES);
export type SignInType = z.infer<typeof SignInTypeSchema>;
/** The sign-in types that open results. */
export const RESULT_SIGN_IN_TYPES = ['APPOINTMENT_RESULTS', 'PATIENT_PORTAL'] as const satisfies readonly SignInType[];
export const isResultSignInType = (type: SignInType): boolean => (RESULT_SIGN_IN_TYPES as readonly SignInType[]).includes(type);

export const OTP_CHANNELS = ['EMAIL', 'SMS'] as const;
export const OtpChannelSchema = z.enum(OTP_CHANNELS);
export type OtpChannel = z.infer<typeof OtpChannelSchema>;

/** A booking key as the server issues them: 22 to 64 base64url characters. */
export const BookingKeySchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, 'expected a booking key');

export const SIGN_IN_MESSAGES = {
  dateOfBirth: 'Please enter a valid date of birth.',
  contactNumber: 'Please enter a valid contact number.',
  authenticationFailed: 'The details do not match our records.',
} as const;

export const SessionQuerySchema = z.object({
  bookingKey: BookingKeySchema,
  type: SignInTypeSchema,
});
export type SessionQuery = z.infer<typeof SessionQuerySchema>;

export const AuthenticateRequestSchema = z.object({
  bookingKey: BookingKeySchema,
  type: SignInTypeSchema,
  dateOfBirth: z.string().refine(isValidCalendarDate, SIGN_IN_MESSAGES.dateOfBirth),
  /** Digits only, at most 10; when given it must match the patient's number. */
  contactNumber: z
    .string()
    .regex(/^\d{1,10}$/, SIGN_IN_MESSAGES.contactNumber)
    .optional(),
  /** Someone signs in to see another person's results ('accessing results of others' wording). */
  shared: z.boolean().optional(),
});
export type AuthenticateRequest = z.infer<typeof AuthenticateRequestSchema>;

export const AuthenticateResponseSchema = z.object({
  otpRequired: z.boolean(),
  /** Channels the patient can receive a code on (only those with a destination and a transport). */
  otpChannels: z.array(OtpChannelSchema),
  /** Role-specific translation overlay, a JSON object as a string. */
  roleTranslations: z.string(),
});
export type AuthenticateResponse = z.infer<typeof AuthenticateResponseSchema>;

export const SendOtpRequestSchema = z.object({ channel: OtpChannelSchema });
export type SendOtpRequest = z.infer<typeof SendOtpRequestSchema>;

export const SendOtpResponseSchema = z.object({
  resendAfterSeconds: z.number().int().min(0),
  /** Masked, e.g. "l***@example.com" or "*******006". */
  destination: z.string(),
});
export type SendOtpResponse = z.infer<typeof SendOtpResponseSchema>;

export const VerifyOtpRequestSchema = z.object({
  code: z.string().regex(/^\d{6}$/, 'The code has 6 digits.'),
});
export type VerifyOtpRequest = z.infer<typeof VerifyOtpRequestSchema>;

export const SessionResponseSchema = z.object({
  isAuthenticated: z.literal(true),
  /** Empty for a contact signed in with a result share: the patient's key is never given to a contact. */
  bookingKey: z.string(),
  type: SignInTypeSchema,
  roleTranslations: z.string(),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/** details of a 429 max_attempts_reached: the message key the /deny page shows. */
export const MAX_ATTEMPTS_MESSAGES = ['max_attempts_reached', 'max_attempts_reached_shared', 'max_attempts_reached_results'] as const;
export const MaxAttemptsDetailsSchema = z.object({
  maxAttempts: z.enum(MAX_ATTEMPTS_MESSAGES),
  /** When the booking opens again, or for a burnt code when a new one may be asked for (also the Retry-After header). */
  retryAfterSeconds: z.number().int().min(1),
});
export type MaxAttemptsDetails = z.infer<typeof MaxAttemptsDetailsSchema>;
