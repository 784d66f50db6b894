-- Lobby kiosks (docs/rules/kiosk.md#enrollment): a kiosk is added by a kiosk administrator and
-- enrolled with a one-time code; it then holds a revocable token (only its sha256 is kept) that
-- every kiosk request carries. Identity checks at a kiosk are counted, so a kiosk cannot be used
-- to probe who has appointments.

create table kiosk (
  id                 uuid primary key default gen_random_uuid(),
  name               text not null check (length(name) between 1 and 80),
  clinic_id          uuid references clinic (id),
  -- Set when the kiosk enrolls; replaced by a new enrollment, cleared by a revocation.
  token_sha256       text unique check (token_sha256 ~ '^[0-9a-f]{64}$'),
  enrolled_at        timestamptz,
  revoked_at         timestamptz,
  last_seen_at       timestamptz,
  created_at         timestamptz not null,
  -- Who added it: the staff subject reference, never a name.
  created_by         text not null
);

-- One-time enrollment codes: only the sha256 is kept; used once, within its time.
create table kiosk_enrollment_code (
  code_sha256 text primary key check (code_sha256 ~ '^[0-9a-f]{64}$'),
  kiosk_id    uuid not null references kiosk (id) on delete cascade,
  expires_at  timestamptz not null,
  used_at     timestamptz
);
create index kiosk_enrollment_code_kiosk_idx on kiosk_enrollment_code (kiosk_id);

-- Identity checks at kiosks, for their limits: per kiosk, and per person (an HMAC of the last name
-- and date of birth under the server's secret, never the values).
create table kiosk_identity_attempt (
  id            bigint generated always as identity primary key,
  kiosk_id      uuid not null references kiosk (id) on delete cascade,
  person_hmac   text not null check (person_hmac ~ '^[0-9a-f]{64}$'),
  matched       boolean not null,
  attempted_at  timestamptz not null
);
create index kiosk_identity_attempt_kiosk_idx on kiosk_identity_attempt (kiosk_id, attempted_at);
create index kiosk_identity_attempt_person_idx on kiosk_identity_attempt (person_hmac, attempted_at);

-- The identity check looks a patient up by last name (any case) and date of birth.
create index patient_last_name_date_of_birth_idx on patient (lower(last_name), date_of_birth);
