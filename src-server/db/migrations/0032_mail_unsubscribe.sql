-- 0032_mail_unsubscribe: the one record of who asked for no more notification mail
-- (docs/rules/notifications.md#unsubscribe). Keyed by the normalised address (trimmed, lower
-- case), so the one-click link in any mail and the per-booking unsubscribe on the appointment
-- page write and read the same row. The row's random id is what an unsubscribe link names: the
-- link carries no address.

create table mail_recipient (
  -- The opaque reference signed into unsubscribe links (src-server/modules/unsubscribe).
  id              uuid primary key default gen_random_uuid(),
  address         text not null unique
                  check (address = lower(btrim(address)) and address ~ '^[^\s<>@]+@[^\s<>@]+$'),
  -- Set: no notification mail goes to this address (the one-time code and the booking
  -- confirmation still do). Null: subscribed (never unsubscribed, or subscribed again).
  unsubscribed_at timestamptz,
  -- The last time a link naming this row was sent: a row that was never unsubscribed and whose
  -- links have all expired holds nothing anyone needs.
  link_sent_at    timestamptz,
  updated_at      timestamptz not null
);

-- Patients who unsubscribed on the appointment page before this record existed keep their choice.
-- (patient.email_unsubscribed_at stays for older readers but is no longer written or read.)
insert into mail_recipient (address, unsubscribed_at, updated_at)
select lower(btrim(email)), min(email_unsubscribed_at), min(email_unsubscribed_at)
from patient
where email_unsubscribed_at is not null and lower(btrim(email)) ~ '^[^\s<>@]+@[^\s<>@]+$'
group by lower(btrim(email));

-- A queued mail whose recipient unsubscribed before it went out is kept as 'skipped', not sent.
alter table outbox_mail drop constraint outbox_mail_status_check;
alter table outbox_mail add constraint outbox_mail_status_check
  check (status in ('queued', 'sending', 'sent', 'failed', 'skipped'));
