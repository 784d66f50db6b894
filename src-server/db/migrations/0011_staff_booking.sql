-- 0011_staff_booking: a booking staff made on a patient's behalf names the staff member who made it
-- (docs/rules/booking.md#staff-bookings): the identity provider's subject of the person (Entra's
-- oid, else sub) and their username, copied from the staff session at booking time. Both are null
-- for every other booking, and set only together, on a staff booking.
alter table appointment
  add column booked_by_staff_subject  text check (length(booked_by_staff_subject) between 1 and 200),
  add column booked_by_staff_username text check (length(booked_by_staff_username) between 1 and 320),
  add constraint appointment_booked_by_staff_shape check (
    (booked_by_staff_subject is null and booked_by_staff_username is null)
    or (booked_by_staff_subject is not null and booked_by_staff_username is not null and staff_booking));
