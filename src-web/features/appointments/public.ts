// What other areas may use of the appointment area (the booking page's reschedule step opens its store).
export { appointmentStoreOf, type AppointmentDialog, type RescheduleContext } from './appointment-store';
