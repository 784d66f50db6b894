-- 0037_booking_request_handling: the booking team works the booking requests at
-- /staff/booking-requests (docs/rules/booking.md#the-staff-queue). One row per request (its
-- booking key) once a staff member has arranged it; none while it is open.

create table booking_request_handling (
  booking_key     text primary key check (length(booking_key) >= 22),
  handled_at      timestamptz not null,
  -- The staff member: their reference (staff:<hash>) and name as the sign-in gave it.
  handled_by_ref  text not null check (handled_by_ref ~ '^staff:[0-9a-f]{16}$'),
  handled_by_name text not null,
  note            text check (note is null or length(note) <= 500)
);

-- The queue lists requests by when they arrived.
create index booking_request_created_at_idx on booking_request (created_at);
