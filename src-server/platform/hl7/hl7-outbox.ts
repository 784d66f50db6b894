import type { Queryable } from '../../db/connection';
import type { Hl7Config } from '../../config-hl7';
import { createHl7OutboundRepository, newControlId } from './outbound-repository';
import { siuMessage, type SchedulingEvent } from './scheduling-messages';

/**
 * Queues the HL7 messages of appointment changes, inside the transaction of the change: a booking
 * that rolls back queues nothing, and one that commits cannot lose its message. The message is
 * built now, from the rows as this transaction sees them. Without HL7_RIS_ADDRESS nothing is queued.
 */

export interface Hl7Outbox {
  readonly enabled: boolean;
  /** SIU^S12 (booked), ^S14 (changed) or ^S15 (cancelled) for each of these appointments. */
  queue(
    tx: Queryable,
    event: SchedulingEvent,
    appointmentIds: readonly string[],
    options: { now: Date; reason?: string | null },
  ): Promise<void>;
}

export const noHl7Outbox: Hl7Outbox = { enabled: false, queue: () => Promise.resolve() };

export function createHl7Outbox(config: Pick<Hl7Config, 'receivingApplication' | 'receivingFacility' | 'sendingFacility'>): Hl7Outbox {
  return {
    enabled: true,
    async queue(tx, event, appointmentIds, { now, reason = null }) {
      if (appointmentIds.length === 0) return;
      const repository = createHl7OutboundRepository(tx);
      for (const facts of await repository.facts(appointmentIds)) {
        const controlId = newControlId();
        const message = siuMessage(event, { ...facts, reason }, { controlId, at: now, ...config });
        await repository.enqueue({ appointmentId: facts.appointmentId, event: `SIU_${event}`, controlId, message }, now);
      }
    },
  };
}
