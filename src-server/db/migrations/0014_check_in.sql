-- Check-in (docs/rules/check-in.md): the provider's check-in settings, which exams take digital
-- check-in, what the patient gave at check-in, and the hand-offs to the clinic's RIS.

-- The provider's check-in settings (one row).
create table check_in_settings (
  id                   boolean primary key default true check (id),
  enabled              boolean not null default true,
  -- Check-in opens this many minutes before the appointment starts and closes at its start.
  prior_minutes        int not null default 120 check (prior_minutes between 5 and 10080),
  -- Simple mode: the patient only confirms; no form is asked.
  simple_mode          boolean not null default false,
  -- The form asks for the patient's gender when the clinic's system needs it.
  ask_gender           boolean not null default false
);
insert into check_in_settings (id) values (true);

-- Digital check-in per exam (a walk-in X-ray may take it, a contrast CT may not).
alter table exam add column check_in_enabled boolean not null default true;

-- What the patient gave at check-in: one row per appointment, written once (a second submission
-- finds it and changes nothing).
create table check_in (
  appointment_id      uuid primary key references appointment (id),
  channel             text not null check (channel in ('DIGITAL', 'KIOSK')),
  referring_doctor_id uuid references referring_doctor (id),
  referral_date       date,
  -- Ten digits (eight, the check digit, the card's issue number) and the person's number on the card.
  medicare_number     text check (medicare_number ~ '^[2-6][0-9]{9}$'),
  medicare_reference  text check (medicare_reference ~ '^[1-9]$'),
  gender              text check (gender in ('FEMALE', 'MALE', 'OTHER')),
  created_at          timestamptz not null
);

-- The hand-offs to the clinic's RIS, delivered by the RIS worker with the outbox's loop
-- (platform/outbox/outbox-loop.ts): claimed with a lease, retried with back-off, kept when they
-- fail. One per appointment and kind, so concurrent submissions create one hand-off.
create table ris_handoff (
  id              bigint generated always as identity primary key,
  appointment_id  uuid not null references appointment (id),
  kind            text not null check (kind in ('prepare_check_in', 'check_in')),
  payload         jsonb not null,
  status          text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts        int not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null,
  -- The HTTP status or network error code only; never a name or the body.
  last_error      text check (length(last_error) <= 200),
  created_at      timestamptz not null,
  sent_at         timestamptz,
  unique (appointment_id, kind),
  check ((status = 'sent') = (sent_at is not null))
);
create index ris_handoff_due on ris_handoff (next_attempt_at) where status in ('queued', 'sending');
