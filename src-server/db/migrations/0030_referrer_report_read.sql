-- When each referring doctor first opened a report (docs/rules/referrers.md#unread-reports): the
-- report list marks a report unread until the doctor, signed in with the report's provider number,
-- opens its quick report. One row per report and doctor; the doctor is their staff subject
-- reference (`staff:` and 16 hex digits, as in the audit log), never the raw subject. A link opened
-- without a referrer session marks nothing: it does not say who opened it.
create table referrer_report_read (
  report_id       uuid not null references result_report (id) on delete cascade,
  reader          text not null check (reader ~ '^staff:[0-9a-f]{16}$'),
  first_opened_at timestamptz not null,
  primary key (report_id, reader)
);
