import { z } from 'zod';
import { BOOKING_REQUEST_CHANNELS, PREFERRED_TIMES } from './booking';
import { staffQueueListSchema } from './common';
import { BookingFormDetailsViewSchema } from './booking-form-details';
import { BookingKeySchema } from './patient-access';
import { multiLineText } from './text';

/**
 * The staff queue of booking requests (docs/rules/booking.md#the-staff-queue): requests the
 * booking team still has to arrange, oldest first, and "Mark handled" with a note.
 */

export const STAFF_BOOKING_REQUESTS_PATH = '/api/staff/booking-requests';
export const staffBookingRequestHandledPath = (bookingKey: string): string =>
  `${STAFF_BOOKING_REQUESTS_PATH}/${encodeURIComponent(bookingKey)}/handled`;

/** Open requests oldest first up to `open`, then the latest handled or cancelled up to `closed`. */
export const STAFF_BOOKING_REQUEST_LIST_CAPS = { open: 200, closed: 50 } as const;
export const BOOKING_REQUEST_HANDLED_NOTE_MAX = 500;

export const STAFF_BOOKING_REQUEST_MESSAGES = {
  notFound: 'No booking request has this key.',
  alreadyHandled: 'Someone has already marked this request handled.',
  cancelled: 'The patient has cancelled this request: there is nothing to arrange.',
  note: `The note can be at most ${BOOKING_REQUEST_HANDLED_NOTE_MAX} characters.`,
} as const;

const Instant = z.iso.datetime({ offset: true });

export const StaffBookingRequestSchema = z.object({
  /** Staff may open everything of any booking; the key names the request and its referral links. */
  bookingKey: z.string(),
  receivedAt: Instant,
  /** Exam names with their modality, in the order they were asked for. */
  exams: z.array(z.string()),
  /** null: any clinic. */
  clinicName: z.string().nullable(),
  patient: z.object({
    name: z.string(),
    dateOfBirth: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    postcode: z.string().nullable(),
  }),
  patientNotes: z.string(),
  /** Where it was made: the booking flow or the chat assistant (docs/rules/chat.md). */
  channel: z.enum(BOOKING_REQUEST_CHANNELS),
  /** The times the patient prefers (chat requests); empty from the booking flow. */
  preferredTimes: z.array(z.enum(PREFERRED_TIMES)),
  /** A screening questionnaire was not answered online: ask it on the phone before booking. */
  screeningByPhone: z.boolean(),
  formDetails: BookingFormDetailsViewSchema.nullable(),
  /** The referral files, each with the staff download link. */
  referrals: z.array(z.object({ fileName: z.string(), downloadUrl: z.string() })),
  status: z.enum(['open', 'handled', 'cancelled']),
  /** Open, and the patient is in a conversation with the provider's chat service about it now (docs/rules/chat.md). */
  withChatService: z.boolean(),
  handledAt: Instant.nullable(),
  /** The staff member's name as their sign-in gives it. */
  handledBy: z.string().nullable(),
  note: z.string().nullable(),
});
export type StaffBookingRequest = z.infer<typeof StaffBookingRequestSchema>;

export const StaffBookingRequestListSchema = staffQueueListSchema(StaffBookingRequestSchema);
export type StaffBookingRequestList = z.infer<typeof StaffBookingRequestListSchema>;

export const StaffBookingRequestParamsSchema = z.strictObject({ bookingKey: BookingKeySchema });

export const MarkBookingRequestHandledSchema = z.strictObject({
  note: multiLineText().trim().max(BOOKING_REQUEST_HANDLED_NOTE_MAX, STAFF_BOOKING_REQUEST_MESSAGES.note).optional(),
});
export type MarkBookingRequestHandled = z.infer<typeof MarkBookingRequestHandledSchema>;
