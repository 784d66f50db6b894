-- Requests counted per client address in a sliding window (platform/address-window-limit.ts): the
-- temporary questionnaire keys and the practice search. In the database, not in a server's
-- memory, so that every server behind a proxy counts the same requests. The address is kept only
-- as an HMAC keyed with the server secret (as booking_limit_counter), never the address itself.
create table address_window_hit (
  kind    text not null check (kind ~ '^[a-z_]{1,40}$'),
  subject text not null check (subject ~ '^[0-9a-f]{64}$'),
  at      timestamptz not null
);
create index address_window_hit_subject on address_window_hit (kind, subject, at);
-- The sweep deletes what every window has let go of.
create index address_window_hit_at on address_window_hit (kind, at);
