-- Asking the PACS to generate a report's images for the viewer (docs/rules/referrers.md#image-generation):
-- one request per report; the RIS/PACS reports the study (ready) or why it could not (failed).
create table image_generation (
  report_id            uuid primary key references result_report (id),
  repository_source    text not null check (repository_source ~ '^[A-Za-z0-9_-]{1,32}$'),
  repository_source_id text check (repository_source_id ~ '^[A-Za-z0-9._:-]{1,128}$'),
  status               text not null check (status in ('REQUESTED', 'READY', 'FAILED')),
  failure              text check (length(failure) <= 500),
  requested_at         timestamptz not null,
  completed_at         timestamptz
);
create index image_generation_requested_idx on image_generation (requested_at) where status = 'REQUESTED';
