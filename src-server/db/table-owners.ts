/**
 * Who owns each table (docs/server.md#table-ownership). A table the patients' and staff's work
 * changes has one owner: the module (or platform part) whose repository writes it; every other
 * module reads it, if at all, in its own queries (joins), and changes it only by calling the owner.
 * The provider's configuration is written only by the seed and the provider's configuration import
 * (src-server/db/seed/); every module reads it. tests/server/code-shape/table-owners.test.ts checks
 * every migration's tables and every repository's writes against this list.
 */

/** Written by src-server/db/seed/ only; read by any module. */
export const PROVIDER_CONFIGURATION_TABLES = [
  'application_image',
  'attachment_settings',
  'body_part',
  'booking_form_settings',
  'booking_settings',
  'cancel_reason',
  'check_in_settings',
  'clinic',
  'clinic_closed_date',
  'clinic_opening_hours',
  'consent_form',
  'document_type',
  'ethnicity_option',
  'exam',
  'exam_body_part',
  'exam_document_type',
  'exam_search_synonym',
  'insurance_type',
  'modality',
  'postcode_location',
  'provider',
  'public_holiday',
  'questionnaire',
  'questionnaire_exam',
  'questionnaire_lookup',
  'questionnaire_modality',
  'questionnaire_settings',
  'referrer_feedback_questionnaire',
  'referring_doctor',
  'region',
  'resource',
  'resource_break',
  'resource_opening_hours',
  'self_service_settings',
  'translation_overlay',
  'walk_in_exam',
] as const;

/** The owner of every other table: a module folder under src-server/modules/, or a part of src-server/platform/ or db/. */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  address_window_hit: 'platform',
  // Booking creates these rows in the transactions that keep times from overlapping; self-service,
  // check-in and the request page change their status through booking's public.ts.
  appointment: 'booking',
  appointment_change: 'appointments',
  appointment_reminder: 'appointments',
  attachment: 'attachments',
  audit_log: 'db',
  availability_change: 'availability',
  // Bumped by the migration's triggers on every availability change (0002_booking.sql).
  availability_version: 'availability',
  booking_form_details: 'booking',
  booking_limit_counter: 'booking',
  booking_outcome: 'questionnaires',
  booking_request: 'booking',
  booking_request_handling: 'staff-booking-requests',
  booking_request_referral: 'attachments',
  callback_limit_counter: 'callbacks',
  callback_request: 'callbacks',
  captcha_solution_used: 'platform/captcha',
  check_in: 'check-in',
  consent_signature: 'appointments',
  details_change_request: 'appointments',
  hl7_inbound: 'ris-inbound',
  hl7_outbound: 'platform/hl7',
  freed_time: 'waitlist',
  idempotency_record: 'platform',
  image_generation: 'results',
  kiosk: 'kiosks',
  kiosk_enrollment_code: 'kiosks',
  kiosk_enrollment_failure: 'kiosks',
  kiosk_identity_attempt: 'kiosks',
  mail_recipient: 'unsubscribe',
  outbox_mail: 'platform/outbox',
  outbox_sms: 'platform/sms',
  patient: 'booking',
  patient_access_failure: 'patient-access',
  patient_access_secret: 'patient-access',
  patient_otp: 'patient-access',
  patient_session: 'patient-access',
  questionnaire_answer: 'questionnaires',
  questionnaire_booking_key: 'questionnaires',
  referrer_feedback: 'referrer-feedback',
  referrer_report_read: 'referrer-reports',
  reminder_settings: 'appointments',
  result_report: 'results',
  result_share: 'result-shares',
  result_share_access: 'patient-access',
  ris_handoff: 'platform/ris',
  screening_review: 'screening-reviews',
  screening_review_settings: 'screening-reviews',
  sms_inbound_reply: 'appointments',
  staff_lookup_counter: 'patient-lookup',
  staff_session: 'staff-access',
  temporary_upload_alert: 'attachments',
  temporary_upload_reservation: 'attachments',
  waitlist_entry: 'waitlist',
  waitlist_offer: 'waitlist',
  waitlist_settings: 'waitlist',
};

/**
 * Writes outside a table's owner, each with why it is still there (none now): a new one must say
 * why it cannot be a call of the owner's public interface.
 */
export const WRITES_BY_OTHERS: readonly { table: string; writer: string; why: string }[] = [];
