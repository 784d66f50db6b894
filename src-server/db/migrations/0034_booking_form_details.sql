-- 0034_booking_form_details: the booking form's details (docs/rules/booking.md#booking-form-details).
-- The provider configures how a booking is paid for (insurance types) and the ethnicity question's
-- answers; each booking keeps what its patient answered, with the labels as they were then, so a
-- later change of the provider's lists never changes or loses an answer.

-- Which questions the form asks and which must be answered (one row: the provider's).
create table booking_form_settings (
  id                          smallint primary key default 1 check (id = 1),
  insurance_asked             boolean not null default true,
  insurance_required          boolean not null default false,
  ethnicity_asked             boolean not null default true,
  ethnicity_required          boolean not null default false,
  referring_practice_asked    boolean not null default true,
  referring_practice_required boolean not null default false,
  -- A required question must be asked.
  check (insurance_asked or not insurance_required),
  check (ethnicity_asked or not ethnicity_required),
  check (referring_practice_asked or not referring_practice_required)
);
insert into booking_form_settings (id) values (1);

-- How an exam can be paid for. `kind` decides the card details asked: MEDICARE the Medicare number
-- of the patient's details, DVA a file number, PRIVATE a fund name and member number, SELF_PAY nothing.
create table insurance_type (
  code     text primary key check (code ~ '^[A-Z0-9_]{1,40}$'),
  kind     text not null check (kind in ('MEDICARE', 'DVA', 'PRIVATE', 'SELF_PAY')),
  label    text not null check (length(label) between 1 and 100),
  position int not null default 0,
  active   boolean not null default true
);

-- The ethnicity question's answers (the ABS standard's, and any the provider adds).
create table ethnicity_option (
  code     text primary key check (code ~ '^[A-Z0-9_]{1,40}$'),
  label    text not null check (length(label) between 1 and 200),
  position int not null default 0,
  active   boolean not null default true
);

-- What one booking's patient answered: one row per booking key (an appointment booking or a
-- booking request), written in the booking's own transaction.
create table booking_form_details (
  booking_key              text primary key,
  owner                    text not null check (owner in ('APPOINTMENT', 'BOOKING_REQUEST')),
  insurance_code           text,
  insurance_kind           text check (insurance_kind in ('MEDICARE', 'DVA', 'PRIVATE', 'SELF_PAY')),
  insurance_label          text,
  insurance_member_number  text check (length(insurance_member_number) <= 30),
  insurance_fund_name      text check (length(insurance_fund_name) <= 100),
  ethnicity_code           text,
  ethnicity_label          text,
  referring_practice_name  text check (length(referring_practice_name) <= 120),
  referring_practice_suburb text check (length(referring_practice_suburb) <= 80),
  created_at               timestamptz not null,
  check ((insurance_code is null) = (insurance_kind is null) and (insurance_code is null) = (insurance_label is null)),
  check ((ethnicity_code is null) = (ethnicity_label is null))
);

-- The organisation search groups the directory by practice: this keeps it an index-only read.
create index referring_doctor_practice_idx on referring_doctor (practice_name, city);
