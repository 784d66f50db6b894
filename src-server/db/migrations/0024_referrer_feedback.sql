-- 0024_referrer_feedback: report-quality feedback by the referring doctor
-- (docs/rules/referrers.md#report-quality-feedback).
--
-- referrer_feedback_questionnaire: the provider's SurveyJS feedback questionnaire(s); the active
-- one with the lowest position is asked. Kept apart from `questionnaire` because those are
-- answered by patients against a booking and are planned per exam; this one is answered by a
-- referrer against a report.
create table referrer_feedback_questionnaire (
  id          uuid primary key default gen_random_uuid(),
  slug        text not null unique check (slug ~ '^[a-z0-9-]+$'),
  title       text not null check (title <> ''),
  json        jsonb not null check (jsonb_typeof(json) = 'object'),
  modal_size  text not null default 'lg' check (modal_size in ('sm', 'md', 'lg', 'xl')),
  position    int not null default 0,
  active      boolean not null default true
);

-- One feedback per report: the unique report_id decides between concurrent posts (no check
-- before the insert can race). given_by is the imsec's token id (given_via 'imsec') or the
-- signed-in referrer's subject reference (given_via 'session'), never the link itself.
create table referrer_feedback (
  id               uuid primary key default gen_random_uuid(),
  report_id        uuid not null unique references result_report (id) on delete cascade,
  questionnaire_id uuid not null references referrer_feedback_questionnaire (id),
  answers          jsonb not null check (jsonb_typeof(answers) = 'object' and octet_length(answers::text) <= 65536),
  given_via        text not null check (given_via in ('imsec', 'session')),
  given_by         text not null check (length(given_by) between 1 and 200),
  created_at       timestamptz not null
);
-- The staff list reads newest first.
create index referrer_feedback_created_idx on referrer_feedback (created_at desc, id);
