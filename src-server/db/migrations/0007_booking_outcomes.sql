-- 0007_booking_outcomes: what the questionnaire outcomes decided for a booking (issue 5), kept with
-- it when the answers move to it: the document the patient must bring (SET_DOCUMENT_TYPE), the
-- insurance type (SET_INSURANCE_TYPE) and the validation code the patient gave when an outcome
-- asked for one. Keyed by the booking key, which survives a reschedule.
create table booking_outcome (
  owner_type       text not null check (owner_type in ('APPOINTMENT', 'BOOKING_REQUEST')),
  owner_key        text not null check (length(owner_key) >= 22),
  document_type_id uuid references document_type (id),
  insurance_type   text check (insurance_type <> ''),
  validation_code  text check (validation_code ~ '^[A-Z0-9]{4,20}$'),
  primary key (owner_type, owner_key)
);
