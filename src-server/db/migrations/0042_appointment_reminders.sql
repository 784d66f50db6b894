-- 0042_appointment_reminders: reminders before an appointment (docs/rules/reminders.md). The
-- provider's reminder times (hours before the start) and quiet hours (the clinic's local time, when
-- nothing is sent), and one row per reminder queued, so none goes twice, whichever server sweeps
-- and however often it restarts. A booking moved to another time is reminded again for the new time.
create table reminder_settings (
  id          smallint primary key default 1 check (id = 1),
  -- Hours before the start, each 1 to 336 (two weeks), at most four; empty: no reminders.
  lead_hours  int[] not null default '{72,24}'
              check (cardinality(lead_hours) <= 4 and 1 <= all (lead_hours) and 336 >= all (lead_hours)),
  quiet_start time not null default '21:00',
  quiet_end   time not null default '08:00'
);
insert into reminder_settings (id) values (1);

create table appointment_reminder (
  booking_key text not null,
  -- The start the reminder was for: a new start is reminded again.
  starts_at   timestamptz not null,
  lead_hours  int not null check (lead_hours between 1 and 336),
  channel     text not null check (channel in ('email', 'sms')),
  -- sent: queued to the outbox; skipped: a nearer reminder went instead, or nobody to send it to.
  outcome     text not null check (outcome in ('sent', 'skipped')),
  queued_at   timestamptz not null,
  primary key (booking_key, starts_at, lead_hours, channel)
);
create index appointment_reminder_queued on appointment_reminder (queued_at);
