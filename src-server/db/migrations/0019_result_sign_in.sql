-- Results sign-in (docs/rules/results.md#sign-in): a patient session may also open an
-- appointment's result (APPOINTMENT_RESULTS) or the patient's results and history (PATIENT_PORTAL).
alter table patient_session drop constraint patient_session_subject_type_check;
alter table patient_session add constraint patient_session_subject_type_check
  check (subject_type in ('APPOINTMENT', 'BOOKING_REQUEST', 'APPOINTMENT_RESULTS', 'PATIENT_PORTAL'));
