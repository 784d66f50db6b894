import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { noHl7Outbox, type Hl7Outbox } from '../../platform/hl7/hl7-outbox';
import { availabilityVersion, type AvailabilityStore } from '../availability/public';
import { queueAppointmentNotice } from '../notifications/public';
import type { ChangeLogAction } from './change-rules';
import type { BookingRow, createAppointmentsRepository } from './repository';

/**
 * A patient's status changes as one write each: the status, the change log entry and the audit
 * entry together, inside the caller's transaction; and a cancellation's consequences (the mail,
 * the RIS's SIU^S15, the time free again). The appointment page and the reply to a reminder
 * (reminder-reply.ts) change a booking through these.
 */

export interface StatusChangesDeps {
  repository: ReturnType<typeof createAppointmentsRepository>;
  clock: Clock;
  store: AvailabilityStore;
  publicUrl: string;
  hl7?: Hl7Outbox;
}

export interface LiveChange {
  action: ChangeLogAction;
  toStatus: string;
  now: Date;
  confirm?: boolean;
  reasonLabel?: string | null;
  note?: string | null;
  /** Kept with the change log entry (how the patient answered: the reminder mail or SMS). */
  details?: Record<string, unknown>;
}

export function createStatusChanges(deps: StatusChangesDeps) {
  const { repository, clock, store } = deps;

  async function audit(tx: Queryable, action: string, rows: readonly { id: string }[], details: Record<string, unknown>): Promise<void> {
    await repository.audit(
      {
        actor: 'patient',
        action,
        subjectType: 'appointment',
        subjectId: rows.map((row) => row.id).join(','),
        details,
        now: clock.now(),
      },
      tx,
    );
  }

  /** Moves a booking's live appointments to `toStatus` (status, change log, audit); answers the ids changed. */
  async function moveLive(
    tx: Queryable,
    bookingKey: string,
    live: readonly BookingRow[],
    change: LiveChange,
    audited: { action: string; details: Record<string, unknown> },
  ): Promise<string[]> {
    const { action, toStatus, now, confirm = false, reasonLabel, note, details } = change;
    const ids = await repository.setStatus(
      live.map((row) => row.id),
      toStatus,
      now,
      tx,
      confirm,
    );
    await repository.logChange(
      {
        bookingKey,
        action,
        fromStatus: live[0]?.status ?? '',
        toStatus,
        ...(reasonLabel === undefined ? {} : { reasonLabel }),
        ...(note === undefined ? {} : { note }),
        ...(details === undefined ? {} : { details }),
        now,
      },
      tx,
    );
    await audit(tx, audited.action, live, audited.details);
    return ids;
  }

  /**
   * Cancels the live appointments: the change, the cancellation mail and the RIS's SIU^S15, in the
   * caller's transaction. Answers what `freed` needs once it commits.
   */
  async function cancelLive(
    tx: Queryable,
    bookingKey: string,
    live: readonly BookingRow[],
    change: Omit<LiveChange, 'action' | 'toStatus' | 'confirm'>,
    audited: Record<string, unknown>,
    /** What the RIS's SIU^S15 gives as the reason (the chosen reason's label; never the patient's own note). */
    risReason: string | null,
  ): Promise<{ ids: string[]; version: number }> {
    const ids = await moveLive(
      tx,
      bookingKey,
      live,
      { ...change, action: 'CANCEL', toStatus: 'CANCELED' },
      { action: 'appointment.cancelled', details: audited },
    );
    await queueAppointmentNotice(tx, 'cancellation', bookingKey, live, { publicUrl: deps.publicUrl, clock });
    await (deps.hl7 ?? noHl7Outbox).queue(tx, 'S15', ids, { now: change.now, reason: risReason });
    return { ids, version: await availabilityVersion(tx) };
  }

  /** Applies committed status changes to the in-memory availability index (freed ids): the time is bookable at once. */
  function freed(ids: readonly string[], version: number): void {
    if (ids.length > 0) store.applyCommitted([], ids, { version, bumps: 1 });
  }

  return { audit, moveLive, cancelLive, freed };
}

export type StatusChanges = ReturnType<typeof createStatusChanges>;
