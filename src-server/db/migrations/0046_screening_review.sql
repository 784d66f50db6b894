-- 0046_screening_review: a booking whose screening answers a radiographer should judge
-- (docs/rules/screening-review.md). The REVIEW_BOOKING outcome writes the booking ON_HOLD, holding
-- its time, with one pending review; staff approve it (the appointments become BOOKED) or decline it
-- (cancelled, time freed); an undecided review expires at expires_at and is cancelled the same way.
create table screening_review_settings (
  id                   smallint primary key default 1 check (id = 1),
  -- How many hours before the first appointment an undecided review expires.
  expire_hours_before  int not null default 48 check (expire_hours_before between 1 and 720)
);
insert into screening_review_settings (id) values (1);

create table screening_review (
  id          uuid primary key,
  booking_key text not null unique,
  created_at  timestamptz not null,
  expires_at  timestamptz not null,
  status      text not null default 'pending' check (status in ('pending', 'approved', 'declined', 'expired')),
  -- The patient-facing message of the outcome that asked for the review.
  reason      text,
  decided_by  text,
  decided_by_name text,
  decided_at  timestamptz,
  note        text check (note is null or length(note) <= 1000),
  check ((status = 'pending') = (decided_at is null))
);
create index screening_review_pending on screening_review (expires_at) where status = 'pending';

-- An approval is logged as a REVIEW (ON_HOLD to BOOKED); a decline or expiry as a CANCEL with its note.
alter table appointment_change drop constraint appointment_change_action_check;
alter table appointment_change add constraint appointment_change_action_check
  check (action in ('CANCEL', 'RESCHEDULE', 'CHANGE', 'REQUEST_RESCHEDULE', 'CONFIRM', 'UNSUBSCRIBE', 'REVIEW'));
