-- 0043_reminder_replies: answers to reminders (docs/rules/reminders.md#replies). An SMS reminder
-- keeps the number it went to, so a reply from that number finds the booking it answers (the
-- latest reminder sent to it); and each SMS the provider's inbound webhook delivers is kept by the
-- provider's message id, so a retried delivery is answered as the first and acted on once. The
-- text itself is not kept: it is the patient's own words and only its first word is read.
alter table appointment_reminder add column sms_to text check (sms_to is null or sms_to ~ '^\+?[0-9]{6,20}$');
create index appointment_reminder_sms_to on appointment_reminder (sms_to, queued_at) where sms_to is not null;

create table sms_inbound_reply (
  message_id  text primary key,
  -- confirmed, cancelled: the reply changed the booking; unchanged: it already was so;
  -- not_possible: too late or no longer booked; not_understood, no_reminder, stop: nothing changed.
  outcome     text not null check (outcome in ('confirmed', 'cancelled', 'unchanged', 'not_possible', 'not_understood', 'no_reminder', 'stop')),
  booking_key text,
  received_at timestamptz not null
);
create index sms_inbound_reply_received on sms_inbound_reply (received_at);
