-- 0006_questionnaires: SurveyJS questionnaires per provider (issue 5), the temporary booking keys
-- answers are collected under before a booking exists, the answers themselves, and the lists
-- autocomplete questions suggest from.

create table questionnaire (
  id                                        uuid primary key default gen_random_uuid(),
  slug                                      text not null unique check (slug ~ '^[a-z0-9-]+$'),
  type                                      text not null check (type in (
    'REQUIRED_ON_CONFIRMATION', 'FEEDBACK', 'DECLINE_APPOINTMENT', 'CANCEL_APPOINTMENT_PATIENT',
    'CREATE_BOOKING_REQUEST', 'CREATE_BOOKING_REQUEST_REFERRER', 'PAIN_SCORE_INITIAL', 'PAIN_SCORE_FINAL',
    'PROTOCOL', 'BOOKING_FORM')),
  title                                     text not null check (title <> ''),
  -- The SurveyJS definition.
  json                                      jsonb not null check (jsonb_typeof(json) = 'object'),
  modal_size                                text not null default 'lg' check (modal_size in ('sm', 'md', 'lg', 'xl')),
  association                               text not null check (association in ('MODALITY', 'EXAM', 'GENERAL')),
  -- [{ type, condition, result }]; conditions are SurveyJS expressions over the answer.
  outcomes                                  jsonb not null default '[]' check (jsonb_typeof(outcomes) = 'array'),
  css                                       jsonb not null default '{}' check (jsonb_typeof(css) = 'object'),
  show_close                                boolean not null default true,
  show_closing_confirmation                 boolean not null default false,
  show_previous_button_on_last_page_enabled boolean not null default true,
  position                                  int not null default 0,
  active                                    boolean not null default true
);

create table questionnaire_modality (
  questionnaire_id uuid not null references questionnaire (id) on delete cascade,
  modality_id      uuid not null references modality (id),
  primary key (questionnaire_id, modality_id)
);

create table questionnaire_exam (
  questionnaire_id uuid not null references questionnaire (id) on delete cascade,
  exam_id          uuid not null references exam (id),
  primary key (questionnaire_id, exam_id)
);

-- A temporary booking key (128-bit random, issued by the server). retired_at is set when its
-- answers moved to a booking or to another key; a retired or expired key takes no answers.
create table questionnaire_booking_key (
  booking_key text primary key check (length(booking_key) >= 22),
  created_at  timestamptz not null,
  expires_at  timestamptz not null,
  retired_at  timestamptz
);
create index questionnaire_booking_key_expires_idx on questionnaire_booking_key (expires_at);

-- An answer belongs to a temporary key (TEMPORARY), an appointment booking (APPOINTMENT: the
-- appointments' booking key) or a booking request (BOOKING_REQUEST: its booking key).
-- exam_id / modality_id say which exam or modality it was given for (null for general ones).
create table questionnaire_answer (
  id               uuid primary key default gen_random_uuid(),
  questionnaire_id uuid not null references questionnaire (id),
  owner_type       text not null check (owner_type in ('TEMPORARY', 'APPOINTMENT', 'BOOKING_REQUEST')),
  owner_key        text not null check (length(owner_key) >= 22),
  exam_id          uuid references exam (id),
  modality_id      uuid references modality (id),
  -- The survey data (question name -> value), validated against the questionnaire before storing.
  -- What the answer covers: 'general', 'modality:<modality id>' or 'exam:<exam id>' (the
  -- questionnaire's association); one answer per questionnaire, owner and scope.
  scope            text not null check (scope ~ '^(general|modality:[0-9a-f-]{36}|exam:[0-9a-f-]{36})$'),
  result           jsonb not null check (jsonb_typeof(result) = 'object'),
  saved_at         timestamptz not null,
  unique (questionnaire_id, owner_type, owner_key, scope)
);
create index questionnaire_answer_owner_idx on questionnaire_answer (owner_type, owner_key);

-- Suggestions for autocomplete questions ("autocompleteSource": "<list>").
create table questionnaire_lookup (
  list     text not null check (list ~ '^[a-z0-9-]+$'),
  value    text not null check (value <> ''),
  position int not null default 0,
  primary key (list, value)
);

-- The provider's questionnaire rules (one row). With required_before_booking on, a booking (or
-- booking request) of exams that have BOOKING_FORM questionnaires must name a questionnaire key
-- whose answers cover every one of them; off (the default), answers are checked when given.
create table questionnaire_settings (
  id                      smallint primary key default 1 check (id = 1),
  required_before_booking boolean not null default false
);
insert into questionnaire_settings (id) values (1);
