-- Shares of a result or a history with a contact (docs/rules/results.md#sharing). Only the
-- sha256 of a share link's token is stored; a share ends at expires_at or when revoked, and a
-- contact's session (patient_session.share_id) dies with it at its next request.
create table result_share (
  id              uuid primary key default gen_random_uuid(),
  booking_key     text not null,
  share_type      text not null check (share_type in ('RESULT', 'HISTORY')),
  contact_details text not null check (length(contact_details) between 3 and 254),
  contact_type    text not null check (contact_type in ('EMAIL', 'PHONE')),
  contact_name    text check (length(contact_name) <= 100),
  note            text check (length(note) <= 1000),
  token_sha256    text not null unique check (token_sha256 ~ '^[0-9a-f]{64}$'),
  created_at      timestamptz not null,
  expires_at      timestamptz not null,
  revoked_at      timestamptz,
  check (expires_at > created_at)
);
create index result_share_booking_idx on result_share (booking_key, created_at desc);

-- Every opening of a share by its contact (a completed sign-in), for the patient's share list.
create table result_share_access (
  id         bigint generated always as identity primary key,
  share_id   uuid not null references result_share (id) on delete cascade,
  opened_at  timestamptz not null
);
create index result_share_access_share_idx on result_share_access (share_id, opened_at desc);

alter table patient_session add column share_id uuid references result_share (id) on delete cascade;
