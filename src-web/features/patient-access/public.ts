// What other areas may use of patient access: the authenticated check before a page shows a booking.
export { patientAccessStoreOf } from './patient-access-store';
