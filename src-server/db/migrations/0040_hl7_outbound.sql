-- 0040_hl7_outbound: the HL7 v2 messages the portal sends the provider's RIS over MLLP
-- (docs/integration/hl7.md): SIU^S12 when an appointment is booked, SIU^S15 when it is cancelled.
-- A row is queued in the transaction of the change it reports, with the message as built then
-- (its facts as they were at that moment), and sent by one worker with a lease (platform/hl7/);
-- the messages of one appointment go in the order they were queued.
create table hl7_outbound (
  id              bigint generated always as identity primary key,
  appointment_id  uuid not null references appointment (id),
  event           text not null check (event in ('SIU_S12', 'SIU_S14', 'SIU_S15', 'ADT_A04')),
  -- MSH-10, which the RIS's ACK names (MSA-2): at most 20 characters in HL7 v2.5.1.
  control_id      text not null unique check (control_id ~ '^[A-Za-z0-9]{1,20}$'),
  message         text not null check (message like 'MSH|%'),
  status          text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts        int not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null,
  -- The ACK code or the network error code only; never a name or the message.
  last_error      text check (length(last_error) <= 200),
  created_at      timestamptz not null,
  sent_at         timestamptz,
  check ((status = 'sent') = (sent_at is not null))
);
create index hl7_outbound_due on hl7_outbound (next_attempt_at) where status in ('queued', 'sending');
-- A message waits while an earlier one of its appointment is unsent.
create index hl7_outbound_appointment on hl7_outbound (appointment_id, id) where status in ('queued', 'sending');
