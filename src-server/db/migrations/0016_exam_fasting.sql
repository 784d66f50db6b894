-- Hours without food before an exam (CT with oral contrast, some ultrasound): the check-in
-- checklist turns them into a time of day for the patient ("nothing to eat from 07:30").
-- Null: the exam asks for no fasting.
alter table exam add column fasting_hours smallint check (fasting_hours between 1 and 24);
