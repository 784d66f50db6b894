-- 0035_booking_request_channel: booking requests made in the chat assistant (docs/rules/chat.md).

-- Where the request was made: 'web' (the booking flow; every earlier row) or 'chat' (the
-- assistant's conversation, which may name any exam of the catalogue: the booking team books it
-- by phone).
alter table booking_request add column channel text not null default 'web' check (channel in ('web', 'chat'));

-- The times the patient prefers to be booked at: CALLBACK_WINDOWS in src-contract/api/callbacks.ts.
-- Empty for requests from the booking flow. A null clinic_id is "any clinic".
alter table booking_request add column preferred_times text[] not null default '{}'
  check (cardinality(preferred_times) <= 4
         and preferred_times <@ array['weekdayMorning', 'weekdayAfternoon', 'saturdayMorning', 'anyTime']::text[]);

-- A chat request for an exam whose screening questionnaire was not answered online: the booking
-- team asks it on the phone before booking. Never true for the booking flow (it refuses instead).
alter table booking_request add column screening_by_phone boolean not null default false
  check (channel = 'chat' or not screening_by_phone);
