import type { AppointmentStatus } from '@contract/api/appointments';

// What other areas may use of check-in: the section for the appointment page.
export { CheckInSection } from './check-in-section';
/** What is still to do before the scan, for the kiosk's success step too. */
export { CheckInChecklistView } from './check-in-checklist';

/** Appointments whose page offers check-in (or shows that it is done). */
export const CHECK_IN_STATUSES: readonly AppointmentStatus[] = ['BOOKED', 'CONFIRMED', 'CHECKED_IN'];
