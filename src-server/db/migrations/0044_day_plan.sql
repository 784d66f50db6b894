-- 0044_day_plan: what the day planned before arrival needs (docs/rules/day-plan.md): an exam's
-- timed steps besides fasting (0016), how early to arrive, and the clinic's parking. Columns, not
-- tables: each exam has at most one drink step and one medication stop. The ranges are strict
-- because each value becomes a clock time a patient acts on: a typo ("1500 minutes") must fail
-- here, not send someone to drink water a day early.

-- Water to drink before the scan (a full bladder): the amount as the patient reads it ("1 litre
-- of water"), from and until minutes before the start. All three or none; the window ends at or
-- before the start and lasts at least 5 minutes, within 4 hours of the start.
alter table exam add column drink_amount text;
alter table exam add column drink_from_minutes smallint;
alter table exam add column drink_until_minutes smallint;
alter table exam add constraint exam_drink_step check (
  (drink_amount is null and drink_from_minutes is null and drink_until_minutes is null)
  or (drink_amount <> '' and length(drink_amount) <= 80
      and drink_until_minutes between 0 and 235
      and drink_from_minutes between drink_until_minutes + 5 and 240));

-- A medicine to stop before the scan ("sildenafil or tadalafil"), hours before the start, at most
-- a week: longer stops are the referring doctor's to arrange, not a line in a day plan. Both or none.
alter table exam add column medication_stop text;
alter table exam add column medication_stop_hours smallint;
alter table exam add constraint exam_medication_stop check (
  (medication_stop is null and medication_stop_hours is null)
  or (medication_stop <> '' and length(medication_stop) <= 120 and medication_stop_hours between 1 and 168));

-- Minutes before the start to arrive, when the exam needs longer than the clinic's usual lead
-- (oral contrast to drink at the clinic). Null: the clinic's.
alter table exam add column arrival_minutes smallint check (arrival_minutes between 5 and 180);

-- The clinic's usual lead for check-in (15 minutes unless the clinic says otherwise) and its
-- parking, plain text the patient reads ('' when the clinic has nothing to say).
alter table clinic add column arrival_minutes smallint not null default 15 check (arrival_minutes between 5 and 120);
alter table clinic add column parking text not null default '' check (length(parking) <= 500);
