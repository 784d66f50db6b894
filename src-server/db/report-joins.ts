/**
 * A stored report with the appointment it reports on and that appointment's patient, exam and
 * clinic (aliases r, a, p, e, c): the FROM of every read that shows a report with what its page or
 * mail names (the results, the referrer's reports, the e-mail preview), so the join is written once.
 */
export const FROM_REPORT_WITH_APPOINTMENT = `from result_report r
  join appointment a on a.id = r.appointment_id
  join patient p on p.id = a.patient_id
  join exam e on e.id = a.exam_id
  join clinic c on c.id = a.clinic_id`;
