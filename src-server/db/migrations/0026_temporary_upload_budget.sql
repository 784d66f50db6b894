-- Budgets for documents uploaded under temporary booking keys, where no account stands behind
-- the bytes (docs/rules/attachments.md#limits). The provider's numbers:
alter table attachment_settings
  -- Bytes one client address may store under temporary keys in the rolling window (200 MiB).
  add column temporary_bytes_per_client bigint not null default 209715200
    check (temporary_bytes_per_client between 1048576 and 10737418240),
  -- Uploads from one address in the window after which a solved proof-of-work answer is needed.
  add column temporary_uploads_before_captcha int not null default 5
    check (temporary_uploads_before_captcha between 0 and 1000),
  -- The rolling window of both, in hours.
  add column temporary_budget_window_hours int not null default 24
    check (temporary_budget_window_hours between 1 and 168),
  -- All temporary documents together (5 GiB); past it new temporary uploads are refused (507).
  add column temporary_bytes_total bigint not null default 5368709120
    check (temporary_bytes_total between 1048576 and 1099511627776);

-- One row per temporary upload: reserved (settled false) before its bytes are read, settled to
-- the stored size when its row is written, deleted when it is refused. The client is an HMAC of
-- its address with the server secret (as booking_limit_counter), never the address.
create table temporary_upload_reservation (
  id          uuid primary key default gen_random_uuid(),
  client_hmac text not null check (client_hmac ~ '^[0-9a-f]{64}$'),
  bytes       bigint not null check (bytes >= 0),
  settled     boolean not null default false,
  created_at  timestamptz not null
);
create index temporary_upload_reservation_client_idx on temporary_upload_reservation (client_hmac, created_at);
create index temporary_upload_reservation_created_idx on temporary_upload_reservation (created_at);

-- The warning levels (percent of temporary_bytes_total) the total is past, each raised once per
-- crossing; a level's row goes when the total falls below it again.
create table temporary_upload_alert (
  level_percent int primary key check (level_percent between 1 and 100),
  raised_at     timestamptz not null
);
