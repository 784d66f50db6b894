import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { conflict, notFound } from '../../platform/errors';
import { availabilityVersion, type AvailabilityStore } from '../availability/public';
import { queueAppointmentNotice } from '../notifications/public';
import { createAppointmentsRepository } from './repository';
import type { Hl7Outbox } from '../../platform/hl7/hl7-outbox';

/**
 * A cancellation by the provider's own system (its RIS, through the FHIR API): one appointment of
 * a booking, whatever the patient's online cut-off (the clinic decides), told to the patient by the
 * same cancellation mail as a cancellation online, and its time free again at once. Cancelling a
 * cancelled appointment again changes nothing (a retried request).
 */

/** What the provider may still cancel: any status that holds the time. */
const CANCELLABLE: ReadonlySet<string> = new Set(['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN']);

export interface ProviderCancelDeps {
  db: Database;
  clock: Clock;
  store: AvailabilityStore;
  publicUrl: string;
  /** The RIS's HL7 messages: SIU^S15, queued in the cancellation's transaction. */
  hl7: Hl7Outbox;
}

export interface ProviderCancellation {
  /** The audit actor (`fhir-client:<client id>`). */
  actor: string;
  /** Why, as the system said it (kept in the change log, shown to staff); null when not given. */
  note: string | null;
  /** False when the RIS itself cancelled (its SIU^S15): no SIU^S15 goes back to tell it what it said. */
  tellRis?: boolean;
}

export function createProviderCancel(deps: ProviderCancelDeps) {
  const { db, clock, store } = deps;
  const repository = createAppointmentsRepository(db);
  return async function cancelByProvider(appointmentId: string, by: ProviderCancellation): Promise<'cancelled' | 'already cancelled'> {
    const outcome = await db.transaction(async (tx) => {
      const bookingKey = await repository.bookingKeyOf(appointmentId, tx);
      if (bookingKey === null) throw notFound('There is no such appointment.');
      const rows = await repository.lockBookingRows(bookingKey, tx);
      const row = rows.find((candidate) => candidate.id === appointmentId);
      if (row === undefined) throw notFound('There is no such appointment.');
      if (row.status === 'CANCELED') return { kind: 'already cancelled' as const };
      if (!CANCELLABLE.has(row.status))
        throw conflict(`This appointment is no longer booked (${row.status.toLowerCase()}); there is nothing to cancel.`);
      const now = clock.now();
      const ids = await repository.setStatus([row.id], 'CANCELED', now, tx);
      await repository.logChange(
        {
          bookingKey: bookingKey,
          action: 'CANCEL',
          fromStatus: row.status,
          toStatus: 'CANCELED',
          note: by.note,
          details: { by: by.actor },
          now,
          actor: 'staff',
        },
        tx,
      );
      await repository.audit(
        {
          actor: by.actor,
          action: 'appointment.cancelled_by_provider',
          subjectType: 'appointment',
          subjectId: row.id,
          details: { from: row.status },
          now,
        },
        tx,
      );
      await queueAppointmentNotice(tx, 'cancellation', bookingKey, [row], { publicUrl: deps.publicUrl, clock });
      if (by.tellRis !== false) await deps.hl7.queue(tx, 'S15', [row.id], { now, reason: by.note });
      return { kind: 'cancelled' as const, ids, version: await availabilityVersion(tx) };
    });
    if (outcome.kind === 'cancelled' && outcome.ids.length > 0)
      store.applyCommitted([], outcome.ids, { version: outcome.version, bumps: 1 });
    return outcome.kind;
  };
}

export type CancelByProvider = ReturnType<typeof createProviderCancel>;

declare module 'fastify' {
  interface FastifyInstance {
    /** A cancellation by the provider's own system (the FHIR API's Appointment patch, the RIS's SIU^S15); the booking module makes it. */
    readonly cancelByProvider: CancelByProvider;
  }
}
