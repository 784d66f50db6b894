import { z } from 'zod';
import { InstantSchema } from './booking';
import { BookingKeySchema } from './patient-access';

/**
 * What staff read of a booking's consent forms (docs/rules/appointments.md#consent-forms): the
 * forms with the typed name, the time and whether a signature was drawn (at the kiosk), and the
 * drawn signature itself as image/png. Staff sessions with the role staff or admin only; the
 * patient's own GET …/consent-forms says signed or not and never returns the drawing.
 *
 * GET /api/staff/appointments/{bookingKey}/consents
 * GET /api/staff/appointments/{bookingKey}/consents/{formId}/signature.png
 */

export const staffConsentsPath = (bookingKey: string): string => `/api/staff/appointments/${encodeURIComponent(bookingKey)}/consents`;
export const staffSignaturePath = (bookingKey: string, formId: string): string =>
  `${staffConsentsPath(bookingKey)}/${encodeURIComponent(formId)}/signature.png`;

export const StaffConsentsParamsSchema = z.strictObject({ bookingKey: BookingKeySchema });
export const StaffSignatureParamsSchema = z.strictObject({
  bookingKey: BookingKeySchema,
  formId: z.uuid({ message: 'expected a consent form id' }),
});

export const StaffConsentSchema = z.object({
  id: z.string(),
  title: z.string(),
  signed: z.boolean(),
  signedName: z.string().nullable(),
  signedAt: InstantSchema.nullable(),
  /** A signature was drawn (fetch it from staffSignaturePath). */
  drawn: z.boolean(),
});
export type StaffConsent = z.infer<typeof StaffConsentSchema>;

export const StaffConsentsSchema = z.object({
  bookingKey: BookingKeySchema,
  consents: z.array(StaffConsentSchema),
});
export type StaffConsents = z.infer<typeof StaffConsentsSchema>;
