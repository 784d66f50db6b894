-- 0009_booking_limits: how many holds, bookings and confirmation mails one client address or one
-- patient contact made in one day (docs/rules/booking.md#booking-limits). Kept in the database so
-- the counts survive a restart and are shared by every server process on it. The subject is an
-- HMAC with the server secret of the address, e-mail or phone number: never the value itself.
create table booking_limit_counter (
  kind       text not null check (kind ~ '^[a-z_]{1,40}$'),
  subject    text not null check (subject ~ '^[0-9a-f]{64}$'),
  -- The local day the count belongs to, and the instant that day ends (when the count frees).
  day        date not null,
  window_end timestamptz not null,
  count      int not null check (count >= 0),
  primary key (kind, subject, day)
);
-- The sweep deletes the counts of days that have ended.
create index booking_limit_counter_window_end on booking_limit_counter (window_end);
