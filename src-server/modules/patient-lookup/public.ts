/** What the app may use of the staff patient lookup (docs/rules/booking.md#patient-lookup). */
export { createPatientLookup, type PatientLookupService } from './service';
export { registerPatientLookupRoutes } from './routes';
