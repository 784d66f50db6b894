-- The "your results are ready" e-mail (docs/rules/results.md#results-e-mail): sent once, when a
-- report's release time has come; notified_at marks it sent (queued in the mail outbox).
alter table result_report add column notified_at timestamptz;
create index result_report_unnotified_idx on result_report (release_at) where notified_at is null;
