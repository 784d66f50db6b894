-- Finalised reports delivered by the provider's RIS and PACS (docs/rules/results.md#delivery):
-- one per accession number; a repeat of the same delivery changes nothing. The PDF's bytes live
-- in the file storage under pdf_key; study_instance_uid opens the study in the PACS viewer.
create table result_report (
  id                       uuid primary key default gen_random_uuid(),
  accession_number         text not null unique check (accession_number ~ '^[A-Za-z0-9._-]{1,64}$'),
  appointment_id           uuid not null references appointment (id),
  report_text              text not null check (length(report_text) between 1 and 100000),
  pdf_key                  text not null,
  pdf_sha256               text not null check (pdf_sha256 ~ '^[0-9a-f]{64}$'),
  pdf_size                 integer not null check (pdf_size > 0),
  referrer_name            text not null check (length(referrer_name) between 1 and 200),
  referrer_provider_number text,
  study_instance_uid       text check (study_instance_uid ~ '^[0-9]+(\.[0-9]+)*$' and length(study_instance_uid) <= 64),
  release_at               timestamptz not null,
  received_at              timestamptz not null,
  -- sha256 of the delivery as received (its fields and the PDF's digest): the idempotency check.
  delivery_sha256          text not null check (delivery_sha256 ~ '^[0-9a-f]{64}$')
);
create index result_report_appointment_idx on result_report (appointment_id);
