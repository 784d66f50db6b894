-- 0038_booking_request_chat_service: the provider's chat service takes a booking request forward
-- (docs/rules/chat.md#the-providers-chat-service).

-- Who takes the request forward: 'PATIENT' (the booking team arranges it with the patient; every
-- earlier row) or 'CHAT' (the patient is in a conversation with the provider's chat service about
-- it now). A conversation that ends without booking sets it back to 'PATIENT'.
alter table booking_request add column type text not null default 'PATIENT' check (type in ('PATIENT', 'CHAT'));

-- The chat service said it booked the request: the staff queue shows it handled by the chat
-- service (booking_request_handling below), so nobody calls the patient for it.
alter table booking_request_handling drop constraint booking_request_handling_handled_by_ref_check;
alter table booking_request_handling add constraint booking_request_handling_handled_by_ref_check
  check (handled_by_ref ~ '^staff:[0-9a-f]{16}$' or handled_by_ref = 'chat-service');
