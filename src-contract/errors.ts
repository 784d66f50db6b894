import { z } from 'zod';

/**
 * One error vocabulary for server and web. The server answers every failure with
 * `{ code, message, details? }`; the web client turns that body into a typed error.
 */
export const ERROR_CODES = [
  'bad_request',
  'invalid_json',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'max_attempts_reached',
  'internal_error',
  'service_unavailable',
  // Booking: the time went to someone else; a held time expired and was taken; an
  // Idempotency-Key reused with a different request body.
  'slot_taken',
  'hold_expired',
  'idempotency_key_reused',
  // Patient sign-in: date of birth / contact number / booking key did not match (one
  // answer for all three); a wrong one-time password; an OTP too old or already used. Self-service:
  // a cancel or reschedule the rules do not allow (too close to the start, not live, walk-in).
  'authentication_failed',
  'otp_invalid',
  'otp_expired',
  'change_not_allowed',
  // Questionnaires: an answer's outcome denies online booking (DENY_BOOKING) or the
  // booking request (DENY_BOOKING_REQUEST); the message is the provider's.
  'booking_denied',
  // A questionnaire that decides about the booking (it can refuse, redirect, swap exams or ask for
  // more: BOOKING_DECIDING_OUTCOMES in src-contract/api/questionnaires.ts) has no answer for
  // these exams under the booking's questionnaireKey (400; details name each one).
  'questionnaire_required',
  // Too many attempts from one connection or for one contact: the request needs a solved
  // proof-of-work check (src-contract/api/captcha.ts) before it is looked at.
  'captcha_required',
  // Check-in: asked for outside its window (opens priorMinutes before the start, closes at the
  // start: message.late_enable_digital_check_in_error); or not possible yet (a referral is
  // missing, check-in is off for the exam, the appointment is not live).
  'check_in_window_closed',
  'check_in_not_ready',
  // A kiosk request without a live kiosk token (never enrolled, revoked): the kiosk shows its
  // "enroll again" screen.
  'kiosk_not_enrolled',
  // Results delivery: a different report for an accession number already stored (never replaced silently).
  'result_conflict',
  /** The result's report is not released to the patient yet, or there is none. */
  'result_not_available',
  /** The image viewer link is invalid or not for this caller (message.user_not_have_access_to_images). */
  'user_not_have_access_to_images',
  /** No viewer address can be made for the images (message.error_generating_images_url). */
  'error_generating_images_url',
  /** The image link names an image archive (repositorySource) the portal does not know. */
  'unknown_repository_source',
  /** The accession number asked about is not the report the image link names. */
  'accession_mismatch',
  /** The image link has run out (410; the web app shows /deny?resultsExpired=true). */
  'image_link_expired',
  /** The patient withdrew this share (410; the web app shows /deny?revoked=true). */
  'share_revoked',
  /** The share has run out (410; the web app shows /deny?resultsExpired=true). */
  'share_expired',
  /** The share form's contact is neither an e-mail nor (with SMS on) a phone number. */
  'invalid_contact_details',
  /** The patient match form found no history for these details (message.patient_matching_error). */
  'patient_matching_error',
  /** The provider has report-quality feedback by referrers switched off (referrerReportQualityFeedbackEnabled). */
  'referrer_feedback_disabled',
  /** The report already has its referrer's feedback ('feedback already provided'). */
  'feedback_already_provided',
  /** The booking's document space (max_bytes_per_booking) has no room for this file (413; docs/rules/attachments.md#limits). */
  'document_space_full',
  /** Documents uploaded while booking, all together, have used their storage budget (507; docs/rules/attachments.md#limits). */
  'insufficient_storage',
  /** An unsubscribe link that was altered, signed for something else, or has run out (400; docs/rules/notifications.md#unsubscribe). */
  'unsubscribe_link_invalid',
  /** A reminder's answer link that was altered, signed for something else, or has run out (400; docs/rules/reminders.md#replies). */
  'appointment_reply_link_invalid',
  /** An answer to a reminder the booking no longer allows (409; details.state says where it stands). */
  'reply_not_possible',
  /** A waitlist offer's link that was altered, signed for something else, or has run out (400; docs/rules/waitlist.md). */
  'waitlist_offer_link_invalid',
  /** The offered time was taken by another patient, or the offer ended (409; details.outcome). */
  'waitlist_offer_closed',
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ApiErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
