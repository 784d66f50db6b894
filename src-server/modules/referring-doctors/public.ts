/** What other modules (and app.ts) may use of the referring-doctor directory (docs/rules/check-in.md#referring-doctors). */
export { createReferringDoctorsService, type ReferringDoctorsService } from './service';
export { registerReferringDoctorRoutes } from './routes';
export type { ReferringDoctorRow } from './repository';
