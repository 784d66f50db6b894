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
