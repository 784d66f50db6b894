-- 0041_hl7_inbound: the HL7 v2 messages the provider's RIS sent the portal over MLLP
-- (docs/integration/hl7.md#from-the-ris): ORU^R01 reports and SIU cancellations. One row per
-- message as first received (sender and MSH-10), with its digest and the ACK the portal gave; the
-- message itself is not kept (it names the patient: what it changed is in the results and
-- appointments). A message sent again after AA is answered AA again without acting twice.
create table hl7_inbound (
  id                  bigint generated always as identity primary key,
  sending_application text not null check (length(sending_application) <= 180),
  control_id          text not null check (length(control_id) between 1 and 199),
  message_type        text not null check (message_type ~ '^[A-Z0-9]{0,3}\^[A-Z0-9]{0,3}$'),
  message_sha256      text not null check (message_sha256 ~ '^[0-9a-f]{64}$'),
  ack_code            text not null check (ack_code in ('AA', 'AE', 'AR')),
  -- What the ACK said (no personal data): the error code and text, or what was done.
  outcome             text not null check (length(outcome) <= 300),
  appointment_id      uuid references appointment (id),
  received_at         timestamptz not null,
  unique (sending_application, control_id)
);
create index hl7_inbound_received on hl7_inbound (received_at);
