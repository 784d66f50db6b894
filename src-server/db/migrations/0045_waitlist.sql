-- 0045_waitlist: earlier times offered to waiting patients (docs/rules/waitlist.md). A patient with
-- a booking asks for an earlier time; when a booked time is given up (cancelled, rescheduled,
-- changed) the trigger below records it as freed, whichever path gave it up; the waitlist job
-- offers it in turn to waiting patients it fits, holding it for offer_minutes, and the first to
-- accept is moved there.
create table waitlist_settings (
  id            smallint primary key default 1 check (id = 1),
  -- How long an offer holds the time, and how many waiting patients each round offers it to.
  offer_minutes int not null default 30 check (offer_minutes between 5 and 720),
  batch_size    int not null default 3 check (batch_size between 1 and 20)
);
insert into waitlist_settings (id) values (1);

create table waitlist_entry (
  booking_key text primary key,
  -- waiting: offers may come; moved: it took an offer; left: the patient no longer waits.
  status      text not null default 'waiting' check (status in ('waiting', 'moved', 'left')),
  -- Where an earlier time may be: the booking's own clinic, or any clinic of its region.
  clinics     text not null default 'same' check (clinics in ('same', 'region')),
  created_at  timestamptz not null,
  updated_at  timestamptz not null
);
create index waitlist_entry_waiting on waitlist_entry (created_at) where status = 'waiting';

-- A time given up: the first start of a booking's rows that left a live status in one statement.
create table freed_time (
  id          bigint generated always as identity primary key,
  clinic_id   uuid not null references clinic (id),
  starts_at   timestamptz not null,
  freed_at    timestamptz not null default now(),
  -- The round of offers made so far (each round a new batch of waiting patients), and whether it is done
  -- (taken by an offer, or nobody left it fits, or its time too near).
  rounds      int not null default 0,
  closed_at   timestamptz,
  -- The offer being accepted: one at a time, so two patients accepting at once give one booking.
  taken_by    uuid
);
create index freed_time_open on freed_time (id) where closed_at is null;

create table waitlist_offer (
  id           uuid primary key,
  freed_time_id bigint not null references freed_time (id),
  booking_key  text not null references waitlist_entry (booking_key),
  round        int not null,
  hold_id      text not null,
  clinic_id    uuid not null references clinic (id),
  starts_at    timestamptz not null,
  exam_slugs   text[] not null,
  offered_at   timestamptz not null,
  expires_at   timestamptz not null,
  -- offered: waiting for the patient; accepted: moved there; taken: another patient took it;
  -- declined: the patient kept their time; expired: no answer in time.
  outcome      text not null default 'offered' check (outcome in ('offered', 'accepted', 'taken', 'declined', 'expired')),
  answered_at  timestamptz,
  unique (freed_time_id, booking_key)
);
create index waitlist_offer_open on waitlist_offer (expires_at) where outcome = 'offered';

create function appointment_time_freed() returns trigger language plpgsql as $$
begin
  insert into freed_time (clinic_id, starts_at)
    select o.clinic_id, min(lower(o.during))
      from old_rows o join new_rows n on n.id = o.id
     where o.status in ('BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE')
       and n.status in ('CANCELED', 'RESCHEDULED', 'CHANGED')
     group by o.booking_key, o.clinic_id;
  return null;
end $$;

create trigger appointment_time_freed after update on appointment
  referencing old table as old_rows new table as new_rows for each statement execute function appointment_time_freed();
