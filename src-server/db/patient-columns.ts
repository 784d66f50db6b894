/**
 * A patient's name, date of birth and contacts as the staff-facing reads show them (a booking
 * request, the staff queue of booking requests, the patient lookup): one row type, and one column
 * list for `join patient p`, so a new contact column is added once.
 */
export const PATIENT_CONTACT_COLUMNS =
  'p.title, p.first_name, p.last_name, p.date_of_birth::text as date_of_birth, p.email, p.contact_number, p.postcode';

export type PatientContactRow = {
  title: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  email: string | null;
  contact_number: string | null;
  postcode: string | null;
};
