/** What other modules may use of check-in (docs/rules/check-in.md). */
export { createCheckInService, type CheckInService } from './service';
export { registerCheckInRoutes } from './routes';
