import { z } from 'zod';
import { BookingKeySchema } from './patient-access';
import { singleLineText } from './text';

/**
 * Attachments (docs/rules/attachments.md): the documents a patient uploads for a booking (a
 * referral, an implant card, a blood test). One shape under three bases:
 * - /api/secured/appointments/{bookingKey}/attachments (APPOINTMENT session for that key),
 * - /api/secured/booking_requests/{bookingKey}/attachments (BOOKING_REQUEST session),
 * - /api/booking-keys/{bookingKey}/attachments (a temporary questionnaire booking key, before
 *   the booking exists; the key itself is the credential).
 * Under each: GET /response (the upload widget's list), GET / (the viewer's list), POST /
 * (multipart: documentTypeId, referralDate, referringDoctor, then file), PUT /{id} (replace),
 * DELETE /{id} (staff only), GET /{id}/download, GET /{id}/view, POST /imported (staff).
 */

export const ATTACHMENT_BASES = ['appointments', 'booking_requests', 'booking-keys'] as const;
export type AttachmentBase = (typeof ATTACHMENT_BASES)[number];

/** The URL prefix of one booking's attachments; the web app and the server build links with it. */
export function attachmentsBasePath(base: AttachmentBase, bookingKey: string): string {
  const key = encodeURIComponent(bookingKey);
  return base === 'booking-keys' ? `/api/booking-keys/${key}/attachments` : `/api/secured/${base}/${key}/attachments`;
}

/** What is stored and served; HEIC from a phone is converted to JPEG when it arrives. */
export const STORED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export const StoredContentTypeSchema = z.enum(STORED_CONTENT_TYPES);
export type StoredContentType = z.infer<typeof StoredContentTypeSchema>;

/** What a provider may allow in attachment_settings.allowed_content_types. */
export const UPLOAD_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/heic'] as const;
export const UploadContentTypeSchema = z.enum(UPLOAD_CONTENT_TYPES);
export type UploadContentType = z.infer<typeof UploadContentTypeSchema>;

export const ATTACHMENT_SCAN_STATUSES = ['CLEAN', 'QUARANTINED', 'INFECTED'] as const;
export const REFERRAL_WARNINGS = ['FUTURE', 'EXPIRED'] as const;
export const ReferralWarningSchema = z.enum(REFERRAL_WARNINGS);
export type ReferralWarning = z.infer<typeof ReferralWarningSchema>;

export const DocumentTypeSchema = z.object({ title: z.string(), description: z.string() });

/** One uploaded file. */
export const AttachmentSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  contentType: StoredContentTypeSchema,
  size: z.number().int().positive(),
  documentTypeId: z.string().nullable(),
  documentType: DocumentTypeSchema.nullable(),
  /** The document type's code (REFERRAL, IMPLANT_CARD, ...), or null for an untyped document. */
  documentTypeCode: z.string().nullable(),
  bookingKey: z.string(),
  /** Image size in pixels after the server re-encoded it; null for a PDF. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  scanStatus: z.enum(ATTACHMENT_SCAN_STATUSES),
  referralDate: z.iso.date().nullable(),
  referringDoctor: z.string().nullable(),
  /** The server's word on a referral's date, null when it is fine or was overridden by staff. */
  referralWarning: ReferralWarningSchema.nullable(),
  referralWarningMessage: z.string().nullable(),
  uploadedAt: z.iso.datetime({ offset: true }),
  /** Links under the booking's base (ATTACHMENT_BASES): as attachment, and inline. */
  downloadUrl: z.string(),
  viewUrl: z.string(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/**
 * One document the booking's exams ask for (examDocumentTypes, and the questionnaire outcome's
 * SET_DOCUMENT_TYPE), with the file that fills it when there is one (the spec's Attachment:
 * documentType, slug, documentTypeId, uploadedDocument, hasUploadedDocument).
 */
export const RequestedDocumentSchema = z.object({
  documentTypeId: z.string(),
  documentTypeCode: z.string(),
  documentType: DocumentTypeSchema,
  /** The exams asking for it (slugs); empty when a questionnaire outcome asked for it. */
  examSlugs: z.array(z.string()),
  hasUploadedDocument: z.boolean(),
  uploadedDocument: z.object({ id: z.uuid(), fileName: z.string() }).nullable(),
});
export type RequestedDocument = z.infer<typeof RequestedDocumentSchema>;

/** GET {base}/response: what the upload widget shows. */
export const AttachmentsResponseSchema = z.object({
  bookingKey: z.string(),
  documents: z.array(RequestedDocumentSchema),
  attachments: z.array(AttachmentSchema),
  limits: z.object({
    /** The types the widget offers (the accept attribute) and the server takes. */
    allowedContentTypes: z.array(UploadContentTypeSchema),
    maxFileBytes: z.number().int(),
    maxFiles: z.number().int(),
    maxBytesPerBooking: z.number().int(),
    referralValidityMonths: z.number().int(),
  }),
});
export type AttachmentsResponse = z.infer<typeof AttachmentsResponseSchema>;

/** GET {base}: the viewer carousel's list, newest first. */
export const AttachmentListSchema = z.object({ attachments: z.array(AttachmentSchema) });
export type AttachmentList = z.infer<typeof AttachmentListSchema>;

/** The multipart text fields of POST {base} and PUT {base}/{id}; they come before the file. */
export const AttachmentUploadFieldsSchema = z.strictObject({
  documentTypeId: z.uuid({ message: 'expected a document type id' }).optional(),
  referralDate: z.iso.date({ message: 'expected a date (YYYY-MM-DD)' }).optional(),
  referringDoctor: singleLineText().trim().min(1).max(120, 'at most 120 characters').optional(),
});
export type AttachmentUploadFields = z.infer<typeof AttachmentUploadFieldsSchema>;

export const AttachmentParamsSchema = z.strictObject({ bookingKey: BookingKeySchema });
export const AttachmentItemParamsSchema = z.strictObject({
  bookingKey: BookingKeySchema,
  attachmentId: z.uuid({ message: 'expected an attachment id' }),
});

/** GET /api/secured/booking_requests/{bookingKey}/attachments/response query. */
export const BookingRequestAttachmentsQuerySchema = z.strictObject({
  examGroupName: singleLineText().trim().min(1).max(100).optional(),
  /** Comma-separated exam slugs replacing the request's exams while the patient changes them. */
  changedExamSlugs: z
    .string()
    .regex(/^[a-z0-9-]+(,[a-z0-9-]+){0,19}$/, 'expected comma-separated exam slugs')
    .optional(),
});

/** The first bytes a file must start with to be worth sending (checked again, properly, by the server). */
export const UPLOAD_ACCEPT_ATTRIBUTE: Record<UploadContentType, string> = {
  'application/pdf': 'application/pdf,.pdf',
  'image/jpeg': 'image/jpeg,.jpg,.jpeg',
  'image/png': 'image/png,.png',
  'image/heic': 'image/heic,image/heif,.heic,.heif',
};
