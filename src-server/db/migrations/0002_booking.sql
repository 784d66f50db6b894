-- 0002_booking: online booking (issue 3): holds, multi-exam bookings, walk-ins, booking
-- requests, idempotency, postcodes, public holidays, and the change log that keeps every
-- server's in-memory availability index current.

-- ---------------------------------------------------------------------------------------------
-- Catalogue additions.
alter table exam add column medicare_required boolean not null default false;

-- A resource may keep its own weekly hours; without rows it follows its clinic's.
create table resource_opening_hours (
  resource_id uuid not null references resource (id) on delete cascade,
  weekday     smallint not null check (weekday between 1 and 7),
  opens       time not null,
  closes      time not null,
  primary key (resource_id, weekday, opens),
  check (closes > opens)
);

-- Public holidays close every clinic in the state (clinic.state) on that day.
create table public_holiday (
  state      text not null check (state ~ '^[A-Z]{2,3}$'),
  holiday_on date not null,
  name       text not null check (name <> ''),
  primary key (state, holiday_on)
);

-- Spec point 3 "Postal code location": the postcode locator's answers.
create table postcode_location (
  id        uuid primary key default gen_random_uuid(),
  postcode  text not null unique check (postcode ~ '^\d{4}$'),
  locality  text not null,
  latitude  double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180)
);

-- Spec point 3 "Walk-in exam": exams done without a booked time (recorded on the booking).
create table walk_in_exam (
  id            uuid primary key default gen_random_uuid(),
  modality_id   uuid not null references modality (id),
  name          text not null check (name <> ''),
  prep_time     int not null check (prep_time between 0 and 600),
  minutes_prior int not null check (minutes_prior between 0 and 600),
  position      int not null default 0,
  unique (modality_id, name)
);

-- The provider's booking rules (one row, like provider). Defaults here; the seed sets the demo's.
create table booking_settings (
  id                smallint primary key default 1 check (id = 1),
  -- Earliest bookable start: now + lead_minutes.
  lead_minutes      int not null default 120 check (lead_minutes between 0 and 43200),
  -- Latest bookable day: the clinic's today + horizon_days.
  horizon_days      int not null default 90 check (horizon_days between 1 and 730),
  hold_minutes      int not null default 10 check (hold_minutes between 1 and 120),
  -- Start times are offered on this grid; 5 or 15 keep it on the same wall-clock minutes in
  -- every Australian zone (offsets are whole, half or three-quarter hours).
  slot_step_minutes int not null default 15 check (slot_step_minutes in (5, 15)),
  max_distance_km   double precision not null default 1500 check (max_distance_km > 0),
  default_latitude  double precision not null default -33.8688 check (default_latitude between -90 and 90),
  default_longitude double precision not null default 151.2093 check (default_longitude between -180 and 180),
  default_label     text not null default 'Sydney'
);
insert into booking_settings (id) values (1);

-- ---------------------------------------------------------------------------------------------
-- Appointments: holds live in the same table, so the one exclusion constraint decides every
-- race between two holds, two bookings, or a hold and a booking (security-checklist G1).
--
-- Several exams booked together share one booking key, so the key is no longer unique.
alter table appointment drop constraint appointment_booking_key_key;
create index appointment_booking_key_idx on appointment (booking_key);

-- A hold has no patient and no booking key yet.
alter table appointment alter column patient_id drop not null;
alter table appointment alter column booking_key drop not null;
alter table appointment
  add column hold_id         text,
  add column hold_expires_at timestamptz,
  -- { name, prepTime, minutesPrior } when the booking includes a walk-in exam.
  add column walk_in_exam    jsonb check (walk_in_exam is null or jsonb_typeof(walk_in_exam) = 'object'),
  add column staff_booking   boolean not null default false;

alter table appointment drop constraint appointment_status_check;
alter table appointment add constraint appointment_status_check check (status in (
  'HELD', 'BOOKED', 'PENDING', 'CONFIRMED', 'CANCELED', 'RESCHEDULED', 'CHANGED',
  'REQUEST_RESCHEDULE', 'EXPIRED', 'EXPIRED_PATIENT', 'DECLINED_BY_PATIENT',
  'REMOVED_BY_OPERATOR', 'DELETED', 'ON_HOLD', 'CHECKED_IN'));
alter table appointment add constraint appointment_held_shape check (
  (status = 'HELD' and hold_id is not null and hold_expires_at is not null)
  or (status <> 'HELD' and patient_id is not null and booking_key is not null));

-- HELD joins the slot-holding states. An expired hold still blocks until it is deleted: the
-- writer deletes expired holds in the range inside its own transaction before inserting, and
-- the index ignores holds past their expiry, so an expired hold never refuses anyone.
alter table appointment drop constraint appointment_no_double_booking;
alter table appointment add constraint appointment_no_double_booking exclude using gist (resource_id with =, during with &&)
  where (status in ('HELD', 'BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN'));

create index appointment_hold_idx on appointment (hold_id) where hold_id is not null;
create index appointment_live_upper_idx on appointment (upper(during))
  where status in ('HELD', 'BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN');

-- ---------------------------------------------------------------------------------------------
-- Booking requests for enquiry-only exams: one row per exam, the exams of one request share a key.
create table booking_request (
  id            uuid primary key default gen_random_uuid(),
  slug          text not null unique check (length(slug) >= 22),
  booking_key   text not null check (length(booking_key) >= 22),
  exam_id       uuid not null references exam (id),
  clinic_id     uuid references clinic (id),
  patient_id    uuid not null references patient (id),
  patient_notes text not null default '',
  status        text not null default 'BOOKED' check (status in ('BOOKED', 'CANCELED')),
  created_at    timestamptz not null default now()
);
create index booking_request_booking_key_idx on booking_request (booking_key);

-- ---------------------------------------------------------------------------------------------
-- Idempotency-Key (security-checklist G2): the first successful answer is kept with a hash of
-- the request, so a retry replays it instead of booking twice. Written in the creating
-- transaction, so a key exists exactly when its booking does.
create table idempotency_record (
  scope        text not null check (scope in ('appointment', 'booking_request')),
  key          uuid not null,
  request_hash text not null check (request_hash ~ '^[0-9a-f]{64}$'),
  status_code  int not null,
  response     jsonb not null,
  created_at   timestamptz not null,
  primary key (scope, key)
);
create index idempotency_record_created_idx on idempotency_record (created_at);

-- ---------------------------------------------------------------------------------------------
-- Availability change log. Every server keeps an in-memory availability index; a write in one
-- process must not leave another serving stale times. Triggers (so every writer is covered, in
-- any module or process) bump one counter row and log which resource changed. The counter is
-- updated inside the writing transaction, so its row lock orders versions by commit: a reader
-- that sees version V has every change up to V visible, and reloads just the changed resources.
-- resource_id null means "schedules changed": reload everything.
create table availability_version (
  id      smallint primary key default 1 check (id = 1),
  version bigint not null default 0
);
insert into availability_version (id, version) values (1, 0);

create table availability_change (
  version     bigint not null,
  resource_id uuid,
  changed_at  timestamptz not null default now()
);
create index availability_change_version_idx on availability_change (version);

create function availability_bump() returns bigint language sql as $$
  update availability_version set version = version + 1 where id = 1 returning version
$$;

create function appointment_availability_changed() returns trigger language plpgsql as $$
begin
  -- A statement that touched no row changes nothing, so every version has at least one change
  -- row. Each branch names only the transition tables its event has.
  if tg_op = 'INSERT' then
    if exists (select 1 from new_rows) then
      insert into availability_change (version, resource_id)
        select distinct v.version, n.resource_id from new_rows n, (select availability_bump() as version) v;
    end if;
  elsif tg_op = 'DELETE' then
    if exists (select 1 from old_rows) then
      insert into availability_change (version, resource_id)
        select distinct v.version, o.resource_id from old_rows o, (select availability_bump() as version) v;
    end if;
  elsif exists (select 1 from new_rows) then
    insert into availability_change (version, resource_id)
      select v.version, r.resource_id
        from (select resource_id from new_rows union select resource_id from old_rows) r, (select availability_bump() as version) v;
  end if;
  return null;
end $$;

create trigger appointment_availability_insert after insert on appointment
  referencing new table as new_rows for each statement execute function appointment_availability_changed();
create trigger appointment_availability_update after update on appointment
  referencing old table as old_rows new table as new_rows for each statement execute function appointment_availability_changed();
create trigger appointment_availability_delete after delete on appointment
  referencing old table as old_rows for each statement execute function appointment_availability_changed();

create function schedule_availability_changed() returns trigger language plpgsql as $$
begin
  insert into availability_change (version, resource_id) values (availability_bump(), null);
  return null;
end $$;

create trigger clinic_opening_hours_availability after insert or update or delete on clinic_opening_hours
  for each statement execute function schedule_availability_changed();
create trigger resource_opening_hours_availability after insert or update or delete on resource_opening_hours
  for each statement execute function schedule_availability_changed();
create trigger clinic_closed_date_availability after insert or update or delete on clinic_closed_date
  for each statement execute function schedule_availability_changed();
create trigger public_holiday_availability after insert or update or delete on public_holiday
  for each statement execute function schedule_availability_changed();
create trigger resource_break_availability after insert or update or delete on resource_break
  for each statement execute function schedule_availability_changed();
create trigger resource_availability after insert or update or delete on resource
  for each statement execute function schedule_availability_changed();
create trigger booking_settings_availability after insert or update on booking_settings
  for each statement execute function schedule_availability_changed();
create trigger exam_availability after insert or update or delete on exam
  for each statement execute function schedule_availability_changed();
create trigger clinic_availability after insert or update or delete on clinic
  for each statement execute function schedule_availability_changed();
