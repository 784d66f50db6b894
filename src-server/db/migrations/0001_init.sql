-- 0001_init: the foundation schema (issue 2). Later issues add files; never edit an applied one.

-- btree_gist lets one GiST index combine "same resource" (=) with "overlapping time" (&&),
-- which is what the no-double-booking exclusion constraint on appointments needs.
create extension if not exists btree_gist;

-- ---------------------------------------------------------------------------------------------
-- Provider configuration: one provider per deployment, so one row (id is always 1).
-- Each part the shell reads is a JSONB document validated by its src-contract schema in the
-- service layer, so adding a field to a part is a contract change, not a migration.
create table provider (
  id                 smallint primary key default 1 check (id = 1),
  app_config         jsonb not null,
  radiology_config   jsonb not null,
  body_figure_config jsonb not null,
  integration_config jsonb not null,
  theme_config       jsonb not null,
  environment_config jsonb not null,
  -- Stored as entered; sanitised on the way out like every configured HTML string.
  terms_html         text not null,
  -- Origins that may frame the portal (CSP frame-ancestors), e.g. https://www.example.com.
  embedding_origins  text[] not null default '{}',
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now()
);

-- Per-locale overlay merged over the web app's own catalogues (i18next resource object).
create table translation_overlay (
  locale     text primary key check (locale ~ '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$'),
  resources  jsonb not null check (jsonb_typeof(resources) = 'object'),
  updated_at timestamptz not null default now()
);

-- Header images, favicon, logos (spec point 7). Small, so kept in the database with the
-- configuration instead of on disk; content_type comes from the bytes, never the file name.
create table application_image (
  name         text primary key check (name in (
                 'favicon', 'confirmation_header', 'check_in_header', 'header_tablet', 'header',
                 'image_viewer_banner', 'patient_portal_background', 'logo', 'branding_logo')),
  content_type text not null check (content_type in (
                 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon', 'image/svg+xml')),
  content      bytea not null check (octet_length(content) > 0),
  -- Strong ETag for conditional GETs.
  sha256       text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  updated_at   timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Where: regions, clinics, their opening hours, rooms/machines and closed days.
create table region (
  id       uuid primary key default gen_random_uuid(),
  slug     text not null unique check (slug ~ '^[a-z0-9-]+$'),
  name     text not null check (name <> ''),
  position int not null default 0
);

create table clinic (
  id         uuid primary key default gen_random_uuid(),
  slug       text not null unique check (slug ~ '^[a-z0-9-]+$'),
  region_id  uuid not null references region (id),
  name       text not null check (name <> ''),
  street     text not null,
  suburb     text not null,
  state      text not null,
  postcode   text not null,
  phone      text not null,
  email      text,
  latitude   double precision not null check (latitude between -90 and 90),
  longitude  double precision not null check (longitude between -180 and 180),
  -- IANA zone; appointment times are computed and shown in the clinic's local time.
  time_zone  text not null,
  position   int not null default 0
);
create index clinic_region_idx on clinic (region_id);

create table clinic_opening_hours (
  clinic_id uuid not null references clinic (id) on delete cascade,
  -- ISO weekday: 1 = Monday … 7 = Sunday.
  weekday   smallint not null check (weekday between 1 and 7),
  opens     time not null,
  closes    time not null,
  primary key (clinic_id, weekday, opens),
  check (closes > opens)
);

create table clinic_closed_date (
  clinic_id uuid not null references clinic (id) on delete cascade,
  closed_on date not null,
  primary key (clinic_id, closed_on)
);

-- ---------------------------------------------------------------------------------------------
-- What: modalities, body parts, document types and exams.
create table modality (
  id   uuid primary key default gen_random_uuid(),
  code text not null unique check (code ~ '^[A-Z]+$'),
  name text not null check (name <> '')
);

create table body_part (
  id   uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9-]+$'),
  name text not null check (name <> '')
);

create table document_type (
  id          uuid primary key default gen_random_uuid(),
  code        text not null unique check (code <> ''),
  title       text not null check (title <> ''),
  description text not null default ''
);

create table exam (
  id                uuid primary key default gen_random_uuid(),
  slug              text not null unique check (slug ~ '^[a-z0-9-]+$'),
  exam_code         text not null unique check (exam_code <> ''),
  name              text not null check (name <> ''),
  modality_id       uuid not null references modality (id),
  duration_minutes  int not null check (duration_minutes between 5 and 240),
  priority          int not null default 0 check (priority >= 0),
  preparation_notes text not null default '',
  notes             text,
  referral_required boolean not null,
  -- Enquiry-only exams have no online times: booking one makes a booking request.
  enquiry_only      boolean not null
);
create index exam_modality_idx on exam (modality_id);

create table exam_body_part (
  exam_id      uuid not null references exam (id) on delete cascade,
  body_part_id uuid not null references body_part (id),
  primary key (exam_id, body_part_id)
);
create index exam_body_part_body_part_idx on exam_body_part (body_part_id);

create table exam_document_type (
  exam_id          uuid not null references exam (id) on delete cascade,
  document_type_id uuid not null references document_type (id),
  primary key (exam_id, document_type_id)
);

-- A clinic's room or machine for one modality; appointments hold time on a resource.
create table resource (
  id          uuid primary key default gen_random_uuid(),
  clinic_id   uuid not null references clinic (id),
  code        text not null check (code <> ''),
  name        text not null check (name <> ''),
  modality_id uuid not null references modality (id),
  unique (clinic_id, code),
  -- Target of the composite foreign key from appointment: a booking's resource is in its clinic.
  unique (id, clinic_id)
);

-- Daily breaks of a resource (lunch, maintenance); no bookings inside them.
create table resource_break (
  resource_id uuid not null references resource (id) on delete cascade,
  starts      time not null,
  ends        time not null,
  primary key (resource_id, starts),
  check (ends > starts)
);

-- ---------------------------------------------------------------------------------------------
-- Who: referring doctors and patients.
create table referring_doctor (
  id              uuid primary key default gen_random_uuid(),
  provider_number text not null unique check (provider_number <> ''),
  first_name      text not null,
  last_name       text not null,
  practice_name   text not null default '',
  city            text not null default '',
  postcode        text not null default ''
);
create index referring_doctor_last_name_idx on referring_doctor (lower(last_name));

create table patient (
  id             uuid primary key default gen_random_uuid(),
  title          text not null default '',
  first_name     text not null,
  last_name      text not null,
  date_of_birth  date not null,
  email          text,
  contact_number text,
  postcode       text,
  created_at     timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Appointments. Double booking is impossible by construction (DESIGN.md): the exclusion
-- constraint rejects two live appointments on one resource whose times overlap, whatever
-- the application code does (security-checklist G1).
create table appointment (
  id                  uuid primary key default gen_random_uuid(),
  -- The patient's link key: at least 128 bits of randomness (22 base64url characters).
  booking_key         text not null unique check (length(booking_key) >= 22),
  patient_id          uuid not null references patient (id),
  exam_id             uuid not null references exam (id),
  clinic_id           uuid not null references clinic (id),
  resource_id         uuid not null,
  referring_doctor_id uuid references referring_doctor (id),
  status              text not null check (status in (
                        'BOOKED', 'PENDING', 'CONFIRMED', 'CANCELED', 'RESCHEDULED', 'CHANGED',
                        'REQUEST_RESCHEDULE', 'EXPIRED', 'EXPIRED_PATIENT', 'DECLINED_BY_PATIENT',
                        'REMOVED_BY_OPERATOR', 'DELETED', 'ON_HOLD', 'CHECKED_IN')),
  during              tstzrange not null check (not isempty(during) and lower_inc(during) and not upper_inc(during)
                        and not lower_inf(during) and not upper_inf(during)),
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  foreign key (resource_id, clinic_id) references resource (id, clinic_id),
  -- Live statuses hold their slot; the others (cancelled, moved, superseded by a changed
  -- booking, expired, declined, removed, deleted) free it. Every slot-holding state is listed:
  -- leaving one out is how double bookings slip through (Cal.com #29968).
  constraint appointment_no_double_booking exclude using gist (resource_id with =, during with &&)
    where (status in ('BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN'))
);
create index appointment_patient_idx on appointment (patient_id);
create index appointment_clinic_during_idx on appointment using gist (clinic_id, during);

-- ---------------------------------------------------------------------------------------------
-- Security-relevant events: who, what, when (UTC) and where (security-checklist F1).
-- details never holds personal data or secrets (F2).
create table audit_log (
  id           bigint generated always as identity primary key,
  occurred_at  timestamptz not null default now(),
  actor        text not null,
  action       text not null,
  subject_type text,
  subject_id   text,
  details      jsonb not null default '{}'::jsonb
);
create index audit_log_occurred_at_idx on audit_log (occurred_at);
