/** What the app may use of the front desk's confirmation list (docs/rules/staff-appointments.md). */
export { createStaffAppointments, type StaffAppointments } from './service';
export { registerStaffAppointmentRoutes } from './routes';
