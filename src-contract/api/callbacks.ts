import { z } from 'zod';
import { NAME_PATTERN } from './booking';
import { staffQueueListSchema } from './common';

/**
 * Callback requests (docs/rules/callbacks.md): a patient asks the call centre to phone them back
 * (the request and the call-centre mail). Anyone may ask (challenged with the
 * proof-of-work check and limited per connection and per phone number); staff work the queue.
 */
export const CALLBACK_REQUESTS_PATH = '/api/callback-requests';
export const STAFF_CALLBACK_REQUESTS_PATH = '/api/staff/callback-requests';
export const staffCallbackCalledPath = (id: string): string => `${STAFF_CALLBACK_REQUESTS_PATH}/${encodeURIComponent(id)}/called`;

/**
 * When the patient can take a call, in the call centre's opening hours (weekdays 7:30 am to 6 pm,
 * Saturday mornings): windows an agent can act on without a calendar, rather than dated slots
 * that would need the call centre's roster.
 */
export const CALLBACK_WINDOWS = ['weekdayMorning', 'weekdayAfternoon', 'saturdayMorning', 'anyTime'] as const;
export type CallbackWindow = (typeof CALLBACK_WINDOWS)[number];

export const CALLBACK_REASON_MAX = 500;
export const CALLBACK_NOTE_MAX = 500;

export const CALLBACK_MESSAGES = {
  firstName: 'Please enter your first name (letters, spaces, hyphens and apostrophes).',
  lastName: 'Please enter your last name (letters, spaces, hyphens and apostrophes).',
  phone: 'Please enter a phone number of 9 to 15 digits, optionally starting with +.',
  windows: 'Please choose at least one time when we may call you.',
  reason: `Please tell us in up to ${CALLBACK_REASON_MAX} characters what the call is about.`,
  exam: 'The exam is not one we know.',
  note: `The note may be up to ${CALLBACK_NOTE_MAX} characters.`,
  tooMany: 'Too many callback requests have been made from this connection or for this phone number. Please try again later, or call us.',
  notFound: 'No callback request has this id.',
  alreadyCalled: 'This callback request is already marked as called.',
} as const;

/**
 * A phone number as people type it, reduced to what is dialled: spaces, brackets, dots and
 * dashes dropped, a leading + kept ("(02) 5550-0100" -> "0255500100").
 */
export function normalisedCallbackPhone(typed: string): string {
  const trimmed = typed.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

/** A callback phone: 9 to 15 digits with an optional leading plus, once the typing marks are dropped. */
export function isCallbackPhone(typed: string): boolean {
  return typed.length <= 30 && /^\s*\+?[\d\s().-]+$/.test(typed) && /^\+?\d{9,15}$/.test(normalisedCallbackPhone(typed));
}

const personName = (message: string) => z.string().trim().min(1, message).max(100, message).regex(NAME_PATTERN, message);

export const CallbackRequestSchema = z.strictObject({
  firstName: personName(CALLBACK_MESSAGES.firstName),
  lastName: personName(CALLBACK_MESSAGES.lastName),
  phone: z.string().refine(isCallbackPhone, CALLBACK_MESSAGES.phone),
  windows: z
    .array(z.enum(CALLBACK_WINDOWS, { message: CALLBACK_MESSAGES.windows }))
    .min(1, CALLBACK_MESSAGES.windows)
    .max(CALLBACK_WINDOWS.length, CALLBACK_MESSAGES.windows)
    .refine((windows) => new Set(windows).size === windows.length, CALLBACK_MESSAGES.windows),
  reason: z.string().trim().min(1, CALLBACK_MESSAGES.reason).max(CALLBACK_REASON_MAX, CALLBACK_MESSAGES.reason),
  /** The exam the patient was booking when no time suited them (the booking flow's link passes it). */
  examSlug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, CALLBACK_MESSAGES.exam)
    .optional(),
});
export type CallbackRequest = z.infer<typeof CallbackRequestSchema>;

export const CallbackRequestReceivedSchema = z.object({
  id: z.uuid(),
  /** The number as it will be dialled. */
  phone: z.string(),
  windows: z.array(z.enum(CALLBACK_WINDOWS)),
});
export type CallbackRequestReceived = z.infer<typeof CallbackRequestReceivedSchema>;

/** The staff queue: every open request (oldest first, up to OPEN cap), then the latest called ones. */
export const STAFF_CALLBACK_LIST_CAPS = { open: 200, called: 50 } as const;

export const StaffCallbackSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  windows: z.array(z.enum(CALLBACK_WINDOWS)),
  reason: z.string(),
  examName: z.string().nullable(),
  receivedAt: z.iso.datetime({ offset: true }),
  status: z.enum(['open', 'called']),
  calledAt: z.iso.datetime({ offset: true }).nullable(),
  /** The staff member's name as their sign-in gives it. */
  calledBy: z.string().nullable(),
  note: z.string().nullable(),
});
export type StaffCallback = z.infer<typeof StaffCallbackSchema>;

export const StaffCallbackListSchema = staffQueueListSchema(StaffCallbackSchema);
export type StaffCallbackList = z.infer<typeof StaffCallbackListSchema>;

export const StaffCallbackParamsSchema = z.strictObject({ id: z.uuid({ message: CALLBACK_MESSAGES.notFound }) });

export const MarkCallbackCalledSchema = z.strictObject({
  note: z.string().trim().max(CALLBACK_NOTE_MAX, CALLBACK_MESSAGES.note).optional(),
});
export type MarkCallbackCalled = z.infer<typeof MarkCallbackCalledSchema>;
