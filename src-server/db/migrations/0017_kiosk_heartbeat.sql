-- The kiosk app's heartbeat (docs/rules/kiosk.md#fleet): what IT staff see of each kiosk. No
-- patient data: the last patient activity is a time only.
alter table kiosk
  add column last_heartbeat_at        timestamptz,
  add column app_version              text check (length(app_version) between 1 and 40),
  add column uptime_seconds           integer check (uptime_seconds >= 0),
  add column last_crash_at            timestamptz,
  add column last_crash_reason        text check (length(last_crash_reason) between 1 and 200),
  add column last_patient_activity_at timestamptz,
  add column last_offline_at          timestamptz;

-- Wrong enrollment codes per client address, for their limit (docs/rules/kiosk.md#enrollment):
-- a code has 40 bits, and guessing must stay far out of reach.
create table kiosk_enrollment_failure (
  id        bigint generated always as identity primary key,
  ip        text not null check (length(ip) between 1 and 64),
  failed_at timestamptz not null
);
create index kiosk_enrollment_failure_ip_idx on kiosk_enrollment_failure (ip, failed_at);
