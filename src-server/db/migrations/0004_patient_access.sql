-- 0004_patient_access: patient sign-in (issue 4). Sessions, one-time passwords, failed-attempt
-- records for the lockout, and the SMS outbox. No secret is stored in the clear: a session row
-- keeps the sha256 of its cookie token, an OTP row an HMAC-SHA256 of the code (server secret and
-- a per-row salt), attempt rows an HMAC of the booking key or client address.

-- When SESSION_SECRET is not configured, one random secret per database (made by the server on
-- first use), so every server process on this database agrees on the hashes.
create table patient_access_secret (
  id         smallint primary key default 1 check (id = 1),
  secret     text not null check (length(secret) >= 32),
  created_at timestamptz not null
);

create table patient_session (
  id            uuid primary key default gen_random_uuid(),
  token_sha256  text not null unique check (token_sha256 ~ '^[0-9a-f]{64}$'),
  booking_key   text not null,
  subject_type  text not null check (subject_type in ('APPOINTMENT', 'BOOKING_REQUEST')),
  -- dob_verified: the date of birth matched, a one-time password is still needed.
  stage         text not null check (stage in ('dob_verified', 'authenticated')),
  shared        boolean not null default false,
  created_at    timestamptz not null,
  last_seen_at  timestamptz not null,
  -- Absolute end; the idle limit is checked against last_seen_at.
  expires_at    timestamptz not null,
  check (expires_at > created_at)
);
create index patient_session_booking_key_idx on patient_session (booking_key);
create index patient_session_expires_idx on patient_session (expires_at);

create table patient_otp (
  id              uuid primary key default gen_random_uuid(),
  session_id      uuid not null references patient_session (id) on delete cascade,
  booking_key     text not null,
  channel         text not null check (channel in ('EMAIL', 'SMS')),
  salt            text not null check (salt ~ '^[0-9a-f]{32}$'),
  code_hmac       text not null check (code_hmac ~ '^[0-9a-f]{64}$'),
  created_at      timestamptz not null,
  expires_at      timestamptz not null,
  failed_attempts int not null default 0 check (failed_attempts between 0 and 100),
  -- Set when the code was accepted (single use) or burnt by too many wrong tries.
  used_at         timestamptz,
  burnt_at        timestamptz,
  check (expires_at > created_at)
);
create index patient_otp_session_idx on patient_otp (session_id, created_at desc);
-- The per-key send limit (sends in the last hour).
create index patient_otp_key_created_idx on patient_otp (booking_key, created_at);

-- One row per failed sign-in, counted over a sliding window per booking key and per client
-- address. subject_hmac = HMAC(secret, 'key:' || key) or HMAC(secret, 'ip:' || address).
create table patient_access_failure (
  id           bigint generated always as identity primary key,
  scope        text not null check (scope in ('booking_key', 'client')),
  subject_hmac text not null check (subject_hmac ~ '^[0-9a-f]{64}$'),
  stage        text not null check (stage in ('dob', 'otp')),
  occurred_at  timestamptz not null
);
create index patient_access_failure_idx on patient_access_failure (scope, subject_hmac, occurred_at);

-- Outgoing SMS, kept like outbox_mail (0003_outbox.sql): queued in the transaction that makes
-- it, sent by a worker, retried with a growing delay, kept as 'failed' when given up.
create table outbox_sms (
  id              bigint generated always as identity primary key,
  recipient       text not null check (recipient ~ '^\+?\d{6,15}$'),
  text_body       text not null check (length(text_body) between 1 and 1000),
  status          text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts        int not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null,
  -- The HTTP status or network error code only; never the number or the text.
  last_error      text check (length(last_error) <= 200),
  kind            text not null check (kind ~ '^[a-z_]{1,50}$'),
  created_at      timestamptz not null,
  sent_at         timestamptz,
  check ((status = 'sent') = (sent_at is not null))
);
create index outbox_sms_due on outbox_sms (next_attempt_at) where status in ('queued', 'sending');
