-- The exam search (docs/rules/booking.md#exam-search): the provider's own words for an exam
-- (lay words, abbreviations) and its groups of words that mean the same (x-ray, xray, radiograph),
-- served with the catalogue so the patient's browser builds its search index from data.
alter table exam add column search_terms text[] not null default '{}'
  check (cardinality(search_terms) <= 20);

create table exam_search_synonym (
  position integer primary key check (position >= 0 and position < 100),
  terms text[] not null check (cardinality(terms) between 2 and 12)
);
