-- 0033_callback_requests: a patient asks the call centre to phone them back (docs/rules/callbacks.md).

-- Where the "callback requested" mail goes: the provider's call centre (seeded from
-- resources/demo-provider/booking.json). Null: requests are stored and shown at /staff/callbacks,
-- no mail is queued, and the server logs that once.
alter table booking_settings add column call_centre_email text
  check (call_centre_email is null or (length(call_centre_email) between 3 and 254 and call_centre_email ~ '^[^@\s]+@[^@\s]+$'));

create table callback_request (
  id          uuid primary key default gen_random_uuid(),
  -- The order requests arrived in: two in the same millisecond still queue first come, first called.
  arrival     bigint generated always as identity,
  first_name  text not null check (length(first_name) between 1 and 100),
  last_name   text not null check (length(last_name) between 1 and 100),
  -- As dialled: digits with an optional leading plus (spec point 5).
  phone       text not null check (phone ~ '^\+?[0-9]{9,15}$'),
  -- CALLBACK_WINDOWS in src-contract/api/callbacks.ts.
  windows     text[] not null check (cardinality(windows) between 1 and 4),
  reason      text not null check (length(reason) between 1 and 500),
  -- The exam the patient was booking when they asked (the name as it was then).
  exam_name   text,
  locale      text not null,
  received_at timestamptz not null,
  called_at   timestamptz,
  -- The staff member who called: their reference (staff:<hash>) and name as the sign-in gave it.
  called_by_ref  text check (called_by_ref is null or called_by_ref ~ '^staff:[0-9a-f]{16}$'),
  called_by_name text,
  note        text check (note is null or length(note) <= 500),
  check ((called_at is null) = (called_by_ref is null))
);
-- The queue: open ones oldest first, then the latest called.
create index callback_request_open on callback_request (received_at, arrival) where called_at is null;
create index callback_request_called on callback_request (called_at desc) where called_at is not null;

-- How many callback requests one client address and one phone number made in a window (an hour
-- and a day). The subject is an HMAC with the server secret, never the address or number.
create table callback_limit_counter (
  kind         text not null check (kind in ('client_hour', 'client_day', 'phone_hour', 'phone_day')),
  subject      text not null check (subject ~ '^[0-9a-f]{64}$'),
  window_start timestamptz not null,
  window_end   timestamptz not null,
  count        int not null check (count >= 0),
  primary key (kind, subject, window_start)
);
create index callback_limit_counter_window_end on callback_limit_counter (window_end);
