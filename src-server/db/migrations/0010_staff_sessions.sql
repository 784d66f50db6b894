-- 0010_staff_sessions: sessions of staff, referring doctors and IT staff who signed in through
-- the provider's identity provider (docs/rules/staff-access.md#sessions). Like patient_session,
-- the row keeps only the sha256 of the 256-bit cookie token; the session ends 30 minutes after
-- last_seen_at or at expires_at (12 hours after sign-in), whichever comes first.
create table staff_session (
  id            uuid primary key default gen_random_uuid(),
  token_sha256  text not null unique check (token_sha256 ~ '^[0-9a-f]{64}$'),
  -- The identity provider's stable id of the person: Entra's oid, else the token's sub.
  subject       text not null check (length(subject) between 1 and 200),
  username      text not null check (length(username) between 1 and 320),
  display_name  text check (length(display_name) <= 200),
  organization  text check (length(organization) <= 200),
  first_name    text check (length(first_name) <= 100),
  last_name     text check (length(last_name) <= 100),
  -- At least one portal role; a token that maps to none never gets a session.
  roles         jsonb not null check (jsonb_typeof(roles) = 'array' and jsonb_array_length(roles) > 0),
  created_at    timestamptz not null,
  last_seen_at  timestamptz not null,
  expires_at    timestamptz not null,
  check (expires_at > created_at)
);
create index staff_session_subject_idx on staff_session (subject);
create index staff_session_expires_idx on staff_session (expires_at);
