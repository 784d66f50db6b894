import type { Queryable } from '../../db/connection';
import { createCheckInRepository } from './repository';

/** What other modules may use of check-in (docs/rules/check-in.md). */
export { createCheckInService, type CheckInService } from './service';
export { registerCheckInRoutes } from './routes';

/** What the RIS hand-off does once the clinic's system has a check-in (main.ts gives it to the RIS worker). */
export function markCheckedIn(tx: Queryable, appointmentId: string, at: Date): Promise<void> {
  return createCheckInRepository(tx).markCheckedIn(appointmentId, at);
}
