-- The referring doctor's report list (docs/rules/referrers.md#referrer-report-list): a referrer
-- sees the reports whose referrer_provider_number is the provider number their identity provider
-- issued (the access token's provider number claim), kept on their staff session from sign-in.
-- Null for staff, admins, IT staff and a referrer whose provider released no number: such a
-- session lists nothing.
alter table staff_session add column provider_number text
  check (provider_number is null or provider_number ~ '^[0-9]{6}[0-9A-Z][A-Z]$');
-- The list: one referrer's reports, newest first (keyset on received_at, id). Reports without a
-- referrer provider number never appear in anyone's list, so they stay out of the index.
create index result_report_referrer_idx on result_report (referrer_provider_number, received_at desc, id desc)
  where referrer_provider_number is not null;
-- The list's search by a prefix of the patient's first or last name (any case) or of the accession
-- number: a rare prefix is found through these indexes instead of reading all the referrer's
-- rows (text_pattern_ops: LIKE 'abc%' uses a btree whatever the database's collation).
create index patient_first_name_prefix_idx on patient (lower(first_name) text_pattern_ops);
create index patient_last_name_prefix_idx on patient (lower(last_name) text_pattern_ops);
create index result_report_referrer_accession_idx on result_report (referrer_provider_number, lower(accession_number) text_pattern_ops)
  where referrer_provider_number is not null;
