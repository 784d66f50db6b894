-- An exam's preparation as parts with conditions (src-contract/api/preparation.ts): what the
-- patient already did online (the screening questions, the referral upload) changes what the
-- booking's pages, the check-in checklist and the calendar file say. Empty: preparation_notes
-- is the whole text, with no conditions. preparation_notes stays the text before booking (the
-- catalogue's), derived from the parts by the seed.
alter table exam add column preparation_parts jsonb not null default '[]' check (jsonb_typeof(preparation_parts) = 'array');
