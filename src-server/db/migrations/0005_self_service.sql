-- 0005_self_service: appointment self-service and booking requests (issue 4). The provider's
-- self-service rules, cancel reasons, consent forms and their signatures, patient details change
-- requests, e-mail unsubscribe, a change log of every patient change, and referral files of
-- booking requests.

-- ---------------------------------------------------------------------------------------------
-- The provider's self-service rules (one row, like booking_settings).
create table self_service_settings (
  id                            smallint primary key default 1 check (id = 1),
  -- Cancel and reschedule are refused from prior_minutes before the start: a change is allowed
  -- only while start - now > prior_minutes (exactly prior_minutes before is too late).
  prior_minutes                 int not null default 1440 check (prior_minutes between 0 and 43200),
  -- A booking with a walk-in exam can be rescheduled online only when this is on.
  walk_in_reschedule_allowed    boolean not null default false,
  -- Cancelling goes through the CANCEL_APPOINTMENT_PATIENT questionnaire instead of the reason dialog.
  cancel_questionnaire_required boolean not null default false,
  -- The consent-form notification dialog is shown while forms are unsigned.
  consent_notify_patient        boolean not null default true,
  -- The booking-request page's booking-info button (sanitised on the way out); null: no button.
  booking_request_info_html     text
);
insert into self_service_settings (id) values (1);

-- The reasons the cancel dialog offers; an empty list means no reason dialog.
create table cancel_reason (
  id       uuid primary key default gen_random_uuid(),
  label    text not null unique check (length(label) between 1 and 200),
  position int not null default 0
);

-- ---------------------------------------------------------------------------------------------
-- Appointments: the patient's confirmation, and a log of every patient change (the audit log
-- keeps no personal data, so the reason and the note live here).
alter table appointment add column confirmed_at timestamptz;

create table appointment_change (
  id           bigint generated always as identity primary key,
  booking_key  text not null,
  action       text not null check (action in ('CANCEL', 'RESCHEDULE', 'CHANGE', 'REQUEST_RESCHEDULE', 'CONFIRM', 'UNSUBSCRIBE')),
  from_status  text not null,
  to_status    text not null,
  -- The cancel reason's label as chosen (labels may be edited later).
  reason_label text check (length(reason_label) <= 200),
  note         text check (length(note) <= 500),
  -- RESCHEDULE / CHANGE: the old and new start instants and exams.
  details      jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  actor        text not null check (actor in ('patient', 'staff')),
  occurred_at  timestamptz not null
);
create index appointment_change_booking_key_idx on appointment_change (booking_key, occurred_at);

-- Unsubscribed from the provider's e-mails (reminders and notices; set per booking's patient row).
alter table patient add column email_unsubscribed_at timestamptz;

-- Reschedule answers are replayed for a repeated Idempotency-Key like bookings.
alter table idempotency_record drop constraint idempotency_record_scope_check;
alter table idempotency_record add constraint idempotency_record_scope_check
  check (scope in ('appointment', 'booking_request', 'reschedule'));

-- ---------------------------------------------------------------------------------------------
-- Consent forms: general ones (modality_id null) apply to every booking, the others to bookings
-- with an exam of that modality. html is sanitised on the way out.
create table consent_form (
  id          uuid primary key default gen_random_uuid(),
  slug        text not null unique check (slug ~ '^[a-z0-9-]+$'),
  title       text not null check (length(title) between 1 and 200),
  html        text not null check (length(html) between 1 and 100000),
  modality_id uuid references modality (id),
  position    int not null default 0,
  active      boolean not null default true
);

-- One signature per booking and form.
create table consent_signature (
  id              uuid primary key default gen_random_uuid(),
  booking_key     text not null,
  consent_form_id uuid not null references consent_form (id),
  signed_name     text not null check (length(signed_name) between 1 and 200),
  signed_at       timestamptz not null,
  unique (booking_key, consent_form_id)
);

-- Patient details change requests: staff apply them; the patient only asks.
create table details_change_request (
  id          uuid primary key default gen_random_uuid(),
  booking_key text not null,
  patient_id  uuid not null references patient (id),
  -- Only the fields the patient asked to change: firstName, lastName, dateOfBirth, email, contactNumber, postcode.
  changes     jsonb not null check (jsonb_typeof(changes) = 'object'),
  note        text check (length(note) <= 1000),
  status      text not null default 'OPEN' check (status in ('OPEN', 'APPLIED', 'REJECTED')),
  created_at  timestamptz not null
);
create index details_change_request_booking_key_idx on details_change_request (booking_key);

-- ---------------------------------------------------------------------------------------------
-- Referral documents of a booking request (small files, kept with the request like
-- application_image). The content type is detected from the bytes when served, never stored
-- from a client's word; file_name is shown and offered as the download name (sanitised then).
create table booking_request_referral (
  id          uuid primary key default gen_random_uuid(),
  booking_key text not null check (length(booking_key) >= 22),
  file_name   text not null check (length(file_name) between 1 and 255),
  content     bytea not null check (octet_length(content) between 1 and 20971520),
  sha256      text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  created_at  timestamptz not null
);
create index booking_request_referral_booking_key_idx on booking_request_referral (booking_key);
