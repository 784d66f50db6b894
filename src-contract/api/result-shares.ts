import { z } from 'zod';
import { InstantSchema } from './booking';
import { multiLineText, singleLineText } from './text';

/**
 * Sharing a result (RESULT) or the whole history (HISTORY) with a contact
 * (docs/rules/results.md#sharing). The patient, signed in with a results type, creates, lists and
 * revokes shares; the contact gets a link by e-mail or SMS, signs in with the patient's date of
 * birth and a code sent to the contact's own address or phone, and reads that one result or
 * history, read-only, until the share expires or is revoked.
 */

export const SHARE_TYPES = ['RESULT', 'HISTORY'] as const;
export const SHARE_CONTACT_TYPES = ['EMAIL', 'PHONE'] as const;
/** The note's default largest length (the provider may configure another). */
export const DEFAULT_SHARE_NOTE_MAX_LENGTH = 150;
/** A share lives this long unless revoked first. */
export const SHARE_LIFETIME_DAYS = 30;

export const SHARE_MESSAGES = {
  invalidContactDetails: 'invalid_contact_details',
  contactRequired: 'Please enter an e-mail address.',
  noteTooLong: 'The note is too long.',
  contactName: 'The name is at most 100 characters.',
} as const;

/** A phone number of 9 to 15 digits with an optional leading plus. */
export const SHARE_PHONE_PATTERN = /^\+?\d{9,15}$/;
const ShareEmailSchema = z.email().max(254);
export const isShareEmail = (value: string): boolean => ShareEmailSchema.safeParse(value).success;

/**
 * The share form. With SMS off the contact must be an e-mail; with SMS on an e-mail or a phone
 * (else invalid_contact_details); the server checks the note against the provider's length.
 */
export const ShareRequestSchema = z.strictObject({
  contactDetails: singleLineText().trim().min(1, SHARE_MESSAGES.contactRequired).max(254, SHARE_MESSAGES.invalidContactDetails),
  contactDetailsType: z.enum(SHARE_CONTACT_TYPES),
  contactName: singleLineText().trim().max(100, SHARE_MESSAGES.contactName).optional(),
  note: multiLineText().trim().max(1000, SHARE_MESSAGES.noteTooLong).optional(),
  type: z.enum(SHARE_TYPES),
});
export type ShareRequest = z.infer<typeof ShareRequestSchema>;

/** One opening of a share by its contact (the access log on the share list). */
export const ShareAccessSchema = z.object({ openedAtUTC: InstantSchema });

export const ShareRecordSchema = z.object({
  id: z.uuid(),
  type: z.enum(SHARE_TYPES),
  contactDetails: z.string(),
  contactDetailsType: z.enum(SHARE_CONTACT_TYPES),
  contactName: z.string().nullable(),
  note: z.string().nullable(),
  dateCreatedUTC: InstantSchema,
  expiresAtUTC: InstantSchema,
  dateRevoked: InstantSchema.nullable(),
  /** Every opening by the contact; the list below shows only the newest. */
  accessCount: z.number().int().min(0),
  /** Newest first, at most 20. */
  accesses: z.array(ShareAccessSchema),
});
export type ShareRecord = z.infer<typeof ShareRecordSchema>;

export const ShareListSchema = z.object({
  shares: z.array(ShareRecordSchema),
  /** What the dialog needs to validate as the server does. */
  smsEnabled: z.boolean(),
  noteMaxLength: z.number().int().min(1),
});
export type ShareList = z.infer<typeof ShareListSchema>;

export const ShareParamsSchema = z.strictObject({
  bookingKey: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  id: z.uuid(),
});

/** A share link's token: 32 random bytes, base64url (only its sha256 is stored). */
export const ShareTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This share link is not valid.');

/** The contact's sign-in (POST /api/patient-access/shared): the link's token and the patient's date of birth. */
export const SharedSignInRequestSchema = z.strictObject({
  shareToken: ShareTokenSchema,
  dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a valid date of birth.'),
});
export type SharedSignInRequest = z.infer<typeof SharedSignInRequestSchema>;

/** What a contact's session reads (GET /api/shared-results). */
export const SharedResultsSchema = z.object({
  type: z.enum(SHARE_TYPES),
  /** The shared results, newest first: one for RESULT, each released one for HISTORY. */
  results: z.array(
    z.object({
      /** Opaque id for the PDF (GET /api/shared-results/{resultId}/report.pdf). */
      resultId: z.uuid(),
      examName: z.string(),
      clinicName: z.string(),
      startsAt: InstantSchema,
      timeZone: z.string(),
      reportText: z.string(),
      reportedAt: InstantSchema,
      referrerName: z.string(),
      imageViewerLink: z.string().nullable(),
    }),
  ),
  patientFirstName: z.string(),
  /** Who shared it, as the contact sees it: "Liam E." */
  sharedBy: z.string(),
});
export type SharedResults = z.infer<typeof SharedResultsSchema>;

/** The /results/shared page's link: the token travels in the fragment, so it never reaches a server log. */
export const SHARED_RESULTS_PATH = '/results/shared';
