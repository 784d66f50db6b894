-- 0030_staff_patient_lookup: staff look up patients who booked before (src-contract/api/patient-lookup.ts).
-- The lookups by name and date of birth, by e-mail and by phone each use an index, so a lookup
-- stays one index probe however many patients the provider has.
create index patient_lookup_name_idx on patient (lower(last_name), date_of_birth);
create index patient_lookup_email_idx on patient (lower(btrim(email)));
-- The phone as one person's: digits only, leading zeros dropped (0412 345 678 and 412345678 are one number).
create index patient_lookup_phone_idx on patient (ltrim(regexp_replace(coalesce(contact_number, ''), '\D', '', 'g'), '0'));

-- How many lookups one staff member made in a window (PATIENT_LOOKUP_LIMITS): ten minutes and one
-- UTC day. staff_ref is the staff member's subject reference (staff:<hash>), never a name.
create table staff_lookup_counter (
  staff_ref    text not null check (staff_ref ~ '^staff:[0-9a-f]{16}$'),
  window_kind  text not null check (window_kind in ('ten_minutes', 'day')),
  window_start timestamptz not null,
  count        int not null check (count >= 0),
  primary key (staff_ref, window_kind, window_start)
);
create index staff_lookup_counter_window_start on staff_lookup_counter (window_start);
