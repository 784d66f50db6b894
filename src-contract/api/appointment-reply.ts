import { z } from 'zod';
import { InstantSchema } from './booking';

/**
 * Answering a reminder (docs/rules/reminders.md#replies): the reminder mail's signed link opens a
 * page that says when and where and offers "I will come" and "I cannot come"; the SMS reminder
 * takes a reply (YES or NO) through the SMS provider's inbound webhook. The token is the page's
 * only credential; GET never changes anything (mail scanners open every link).
 */

/** GET: the appointment the link names and what may be answered; changes nothing. */
export const APPOINTMENT_REPLY_API_PATH = '/api/appointment-reply';
/** POST: "I will come" (the appointment becomes CONFIRMED); idempotent. */
export const APPOINTMENT_REPLY_CONFIRM_PATH = '/api/appointment-reply/confirm';
/** POST: "I cannot come" (cancelled, its time free at once); idempotent. */
export const APPOINTMENT_REPLY_CANCEL_PATH = '/api/appointment-reply/cancel';
/** The page the reminder mail's buttons open: /appointment-reply?token=…&answer=confirm|cancel. */
export const APPOINTMENT_REPLY_PAGE_PATH = '/appointment-reply';
/** The SMS provider POSTs each SMS a patient sends to the provider's number here. */
export const SMS_INBOUND_API_PATH = '/api/sms/inbound';

/** Long enough for any signed link (platform/signed-links MAX_TOKEN_LENGTH); the signature decides the rest. */
export const APPOINTMENT_REPLY_TOKEN_MAX_LENGTH = 1024;

export const AppointmentReplyQuerySchema = z.strictObject({
  token: z
    .string()
    .min(1, 'token is required')
    .max(APPOINTMENT_REPLY_TOKEN_MAX_LENGTH, `token is at most ${APPOINTMENT_REPLY_TOKEN_MAX_LENGTH} characters`),
});

/** The buttons' POST carries no body (or an empty JSON object): the path says the answer. */
export const AppointmentReplyBodySchema = z.strictObject({}).nullish();

/**
 * Where the appointment stands for an answer:
 * - OPEN: booked; both answers possible;
 * - CONFIRMED: the patient said they will come; they may still cancel;
 * - WAITING: the clinic has still to accept it, or the patient asked to reschedule: cancel only;
 * - CANCELLED: cancelled (by this answer or otherwise);
 * - STARTED: its time has come: nothing more by reply;
 * - ENDED: no longer booked for another reason (checked in, removed): nothing more by reply.
 */
export const APPOINTMENT_REPLY_STATES = ['OPEN', 'CONFIRMED', 'WAITING', 'CANCELLED', 'STARTED', 'ENDED'] as const;
export type AppointmentReplyState = (typeof APPOINTMENT_REPLY_STATES)[number];

export const AppointmentReplyViewSchema = z.object({
  state: z.enum(APPOINTMENT_REPLY_STATES),
  canConfirm: z.boolean(),
  canCancel: z.boolean(),
  providerName: z.string(),
  clinic: z.object({ name: z.string(), phone: z.string().nullable(), timeZone: z.string() }),
  /** The booking's current appointments (the cancelled ones too, once cancelled), first first. */
  appointments: z.array(z.object({ examName: z.string(), startsAt: InstantSchema, endsAt: InstantSchema })),
  /** The appointment page (preparation, changes); it asks the patient to sign in. */
  appointmentUrl: z.string(),
});
export type AppointmentReplyView = z.infer<typeof AppointmentReplyViewSchema>;

/**
 * One SMS a patient sent, as the SMS provider's inbound webhook posts it (JSON, bearer token whose
 * sha256 is in SMS_INBOUND_TOKEN_SHA256). messageId is the provider's own id: a retried delivery
 * with the same id is answered as the first and acted on once.
 */
export const SmsInboundSchema = z.strictObject({
  messageId: z.string().regex(/^[\x21-\x7e]{1,128}$/, 'messageId must be 1 to 128 printable characters without spaces'),
  from: z.string().regex(/^\+?[0-9 ()-]{6,24}$/, 'from must be a phone number'),
  text: z.string().max(1600, 'text is at most 1600 characters'),
});
export type SmsInbound = z.infer<typeof SmsInboundSchema>;

/** What a reply did (kept per message id, answered again to a retried delivery). */
export const SMS_REPLY_OUTCOMES = ['confirmed', 'cancelled', 'unchanged', 'not_possible', 'not_understood', 'no_reminder', 'stop'] as const;
export const SmsInboundResultSchema = z.object({ outcome: z.enum(SMS_REPLY_OUTCOMES) });
export type SmsReplyOutcome = (typeof SMS_REPLY_OUTCOMES)[number];
