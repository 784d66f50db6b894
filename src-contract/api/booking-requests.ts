import { z } from 'zod';
import { RequiredDocumentSchema } from './appointments';
import { BOOKING_REQUEST_CHANNELS, PREFERRED_TIMES } from './booking';
import { BookingKeySchema } from './patient-access';

/**
 * Booking requests (docs/rules/appointments.md#booking-requests): the summary of a
 * request (every exam sharing its booking key), cancel, referral download (BOOKING_REQUEST
 * session for that key), and the staff status change (Authorization: Bearer <staff token>).
 */

export const BOOKING_REQUEST_STATUSES = ['BOOKED', 'CANCELED'] as const;
export const BookingRequestStatusSchema = z.enum(BOOKING_REQUEST_STATUSES);
export type BookingRequestStatus = z.infer<typeof BookingRequestStatusSchema>;

/** PATIENT: the booking team arranges it with the patient; CHAT: the provider's chat service is in a conversation about it. */
export const BOOKING_REQUEST_TYPES = ['PATIENT', 'CHAT'] as const;
export type BookingRequestType = (typeof BOOKING_REQUEST_TYPES)[number];

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
  /** Where it was made (docs/rules/chat.md): the booking flow or the chat assistant. */
  channel: z.enum(BOOKING_REQUEST_CHANNELS),
  /** The times the patient prefers (chat requests; empty from the booking flow). */
  preferredTimes: z.array(z.enum(PREFERRED_TIMES)),
  /** The booking team asks the exam's screening questions on the phone before booking. */
  screeningByPhone: z.boolean(),
  /** Who takes it forward: the booking team with the patient, or the provider's chat service in a conversation now. */
  type: z.enum(BOOKING_REQUEST_TYPES),
  /** The provider's chat service said it booked the request (docs/rules/chat.md#the-providers-chat-service). */
  bookedByChatService: z.boolean(),
});
export type BookingRequestSummary = z.infer<typeof BookingRequestSummarySchema>;

/** PUT /api/booking-requests/{bookingKey}/status (staff). */
export const BookingRequestStatusChangeSchema = z.strictObject({ status: BookingRequestStatusSchema });
export type BookingRequestStatusChange = z.infer<typeof BookingRequestStatusChangeSchema>;

/**
 * POST /api/booking-requests/{bookingKey}/chat-service: the page reports the provider's chat
 * service's conversation about the request (spec: a bot disconnect marks it BOOKED when the
 * booking-complete message came, else sets its type PATIENT). The request's own session only.
 */
export const bookingRequestChatServicePath = (bookingKey: string): string =>
  `/api/booking-requests/${encodeURIComponent(bookingKey)}/chat-service`;

export const ChatServiceEventSchema = z.discriminatedUnion(
  'event',
  [
    z.strictObject({ event: z.literal('started') }),
    z.strictObject({ event: z.literal('ended'), bookingComplete: z.boolean({ message: 'bookingComplete must be true or false' }) }),
  ],
  { message: 'expected event "started" or "ended"' },
);
export type ChatServiceEvent = z.infer<typeof ChatServiceEventSchema>;

export const CHAT_SERVICE_MESSAGES = {
  off: 'This provider has no chat service.',
  cancelled: 'This booking request is cancelled: there is nothing to book.',
} as const;
