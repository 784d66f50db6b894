-- 0013_doctor_search: the check-in form's referring-doctor search (docs/rules/check-in.md#referring-doctors)
-- over a directory of tens of thousands of doctors. pg_trgm indexes every three-letter piece of a
-- text, so "any word of the search is part of the doctor's details" (LIKE '%word%') is answered
-- from a GIN index instead of reading every row, and similarity() ranks what it found. PGlite
-- loads the extension too (PGLITE_EXTENSIONS in src-server/db/connection.ts).
create extension if not exists pg_trgm;

-- What a search matches against, lower-cased: the name (first, last, "first last"), practice,
-- city, postcode and provider number. Kept by the database, so no writer can forget it.
alter table referring_doctor
  add column search_text text not null generated always as (
    lower(first_name || ' ' || last_name || ' ' || practice_name || ' ' || city || ' ' || postcode || ' ' || provider_number)
  ) stored;
create index referring_doctor_search_text_trgm_idx on referring_doctor using gin (search_text gin_trgm_ops);

-- The search replaces the last-name lookup of 0001_init; one index less to keep on every write.
drop index referring_doctor_last_name_idx;
