-- The referring doctor's e-mail address as the RIS delivered it with the report
-- (docs/rules/referrers.md#report-ready-mail): the report-ready mail with the quick report link
-- goes there once, when the report is delivered.
alter table result_report add column referrer_email text check (referrer_email is null or length(referrer_email) between 3 and 254);
