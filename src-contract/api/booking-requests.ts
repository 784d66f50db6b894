import { z } from 'zod';
import { RequiredDocumentSchema } from './appointments';
import { BookingKeySchema } from './patient-access';

/**
 * Booking requests (docs/rules/self-service.md#booking-requests): the summary of a
 * request (every exam sharing its booking key), cancel, referral download (BOOKING_REQUEST
 * session for that key), and the staff status change (Authorization: Bearer <staff token>).
 */

export const BOOKING_REQUEST_STATUSES = ['BOOKED', 'CANCELED'] as const;
export const BookingRequestStatusSchema = z.enum(BOOKING_REQUEST_STATUSES);
export type BookingRequestStatus = z.infer<typeof BookingRequestStatusSchema>;

export const BookingRequestParamsSchema = z.strictObject({ bookingKey: BookingKeySchema });
export const ReferralParamsSchema = z.strictObject({ bookingKey: BookingKeySchema, id: z.uuid({ message: 'expected a referral id' }) });

export const BookingRequestSummarySchema = z.object({
  bookingKey: z.string(),
  /** BOOKED while any exam of the request is still open, else CANCELED. */
  status: BookingRequestStatusSchema,
  patientNotes: z.string(),
  bookingDetails: z.object({
    exams: z.array(z.object({ name: z.string(), nameWithModality: z.string(), slug: z.string() })),
    clinicName: z.string().nullable(),
  }),
  patientDetails: z.object({
    title: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirth: z.string(),
    email: z.string().nullable(),
    contactNumber: z.string().nullable(),
    postalCode: z.string().nullable(),
  }),
  /** The request's REFERRAL attachments (src-contract/api/attachments.ts), each with its download link. */
  referrals: z.array(z.object({ id: z.string(), fileName: z.string(), contentType: z.string(), downloadUrl: z.string() })),
  /** The booking-info button's text (sanitised HTML); null: no button. */
  bookingInfoHtml: z.string().nullable(),
  /** The document a questionnaire outcome (SET_DOCUMENT_TYPE) asked the patient to bring, or null. */
  requiredDocument: RequiredDocumentSchema.nullable(),
});
export type BookingRequestSummary = z.infer<typeof BookingRequestSummarySchema>;

/** PUT /api/booking-requests/{bookingKey}/status (staff). */
export const BookingRequestStatusChangeSchema = z.strictObject({ status: BookingRequestStatusSchema });
export type BookingRequestStatusChange = z.infer<typeof BookingRequestStatusChangeSchema>;
