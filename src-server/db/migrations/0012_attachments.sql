-- 0012_attachments: documents a patient uploads (a referral, an implant card, a blood test) for a
-- booking. The bytes live in file storage (a folder under DATA_DIR, or S3-compatible object
-- storage) under a server-made key; this row is written only after the file is durable, and the
-- orphan sweeper removes stored files that no row names.
--
-- owner_type / owner_key: APPOINTMENT and BOOKING_REQUEST use the booking's key; TEMPORARY uses a
-- questionnaire booking key while the booking does not exist yet, and is moved to the booking
-- (or to a new key after a failed booking) in the booking's own transaction.
create table attachment (
  id                   uuid primary key default gen_random_uuid(),
  owner_type           text not null check (owner_type in ('APPOINTMENT', 'BOOKING_REQUEST', 'TEMPORARY')),
  owner_key            text not null check (length(owner_key) >= 22),
  document_type_id     uuid references document_type (id),
  storage_key          text not null unique check (storage_key ~ '^[A-Za-z0-9_-]{22,64}$'),
  -- The name the patient's device gave, cleaned for display only; never a path.
  file_name            text not null check (length(file_name) between 1 and 120),
  content_type         text not null check (content_type in ('application/pdf', 'image/jpeg', 'image/png')),
  size_bytes           bigint not null check (size_bytes > 0),
  sha256               text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  width                int check (width > 0),
  height               int check (height > 0),
  -- CLEAN may be served; QUARANTINED waits for the virus scanner (or stays when it is down);
  -- INFECTED is never served and its bytes are deleted.
  scan_status          text not null default 'CLEAN' check (scan_status in ('CLEAN', 'QUARANTINED', 'INFECTED')),
  -- What the patient said about a referral, and the server's warning about its date.
  referral_date        date,
  referring_doctor     text check (length(referring_doctor) between 1 and 120),
  referral_warning     text check (referral_warning in ('FUTURE', 'EXPIRED')),
  warning_overridden_by text check (length(warning_overridden_by) between 1 and 200),
  imported_at          timestamptz,
  created_at           timestamptz not null,
  updated_at           timestamptz not null
);
create index attachment_owner_idx on attachment (owner_type, owner_key, created_at);

-- Upload limits and the referral validity; one row (id = true), like the other settings tables.
create table attachment_settings (
  id                       boolean primary key default true check (id),
  max_file_bytes           int not null default 10485760 check (max_file_bytes between 1024 and 52428800),
  max_files_per_booking    int not null default 10 check (max_files_per_booking between 1 and 50),
  max_bytes_per_booking    bigint not null default 52428800 check (max_bytes_per_booking between 1024 and 524288000),
  -- Which types the upload widget offers and the server takes (checked by the bytes).
  allowed_content_types    text[] not null default array['application/pdf', 'image/jpeg', 'image/png']
                             check (allowed_content_types <@ array['application/pdf', 'image/jpeg', 'image/png', 'image/heic']
                                    and cardinality(allowed_content_types) >= 1),
  referral_validity_months int not null default 12 check (referral_validity_months between 1 and 120)
);
insert into attachment_settings (id) values (true);
