import type { Queryable } from '../../db/connection';
import { markCheckedIn as markAppointmentCheckedIn } from '../appointments/public';

/** What other modules may use of check-in (docs/rules/check-in.md). */
export { createCheckInService, type CheckInService } from './service';
export { registerCheckInRoutes, sendCheckInAccepted } from './routes';
/** What a booking still lacks before its scan (the day plan shows it before check-in). */
export { stillMissing } from './checklist';

/**
 * What the RIS hand-off does once the clinic's system has a check-in (main.ts gives it to the RIS
 * worker): the appointment, which the appointments module owns, becomes CHECKED_IN.
 */
export function markCheckedIn(tx: Queryable, appointmentId: string, at: Date): Promise<void> {
  return markAppointmentCheckedIn(tx, appointmentId, at);
}
