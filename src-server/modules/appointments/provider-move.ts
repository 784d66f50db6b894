import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { conflict, notFound, validationError } from '../../platform/errors';
import type { BookingService } from '../booking/public';
import { CHANGEABLE, currentRows } from './change-rules';
import { confirmNewTime } from './new-time-confirmation';
import { createAppointmentsRepository, type BookingRow } from './repository';
import { createSummaries } from './summary';

/**
 * A move by the provider's own system (its RIS's SIU^S13): the booking of the appointment named
 * goes to a new start at its clinic, all its live exams together and in order, as a patient's
 * reschedule moves them; but the appointments keep their ids (the RIS knows them), whatever the
 * patient's online cut-off (the clinic decides). The same offered-time and free-resource rules as
 * a booking; the exclusion constraint decides races (booking's moveInPlace). The patient is mailed
 * the new time. A booking whose patient asked to reschedule is booked again (REQUEST_RESCHEDULE
 * becomes BOOKED). Moving to the time it already has changes nothing (a message sent again).
 */

export interface ProviderMoveDeps {
  db: Database;
  clock: Clock;
  booking: BookingService;
  publicUrl: string;
}

export interface ProviderMove {
  /** The audit actor (`hl7:<sending application>`). */
  actor: string;
  /** The new start of the booking's first exam. */
  startsAt: Date;
  /** Why, as the system said it (the change log); null when not given. */
  note: string | null;
}

export function createProviderMove(deps: ProviderMoveDeps) {
  const { db, clock, booking } = deps;
  const repository = createAppointmentsRepository(db);
  const { summaryOf } = createSummaries(repository, clock);

  /** The live rows of the appointment's booking, or why there are none to move. */
  function liveRowsOf(rows: readonly BookingRow[], appointmentId: string): BookingRow[] {
    const row = rows.find((candidate) => candidate.id === appointmentId);
    if (row === undefined) throw notFound('There is no such appointment.');
    const live = currentRows(rows).filter((candidate) => CHANGEABLE.has(candidate.status));
    if (!live.some((candidate) => candidate.id === appointmentId))
      throw conflict(`This appointment is no longer booked (${row.status.toLowerCase()}); there is nothing to move.`);
    return live;
  }

  return async function moveByProvider(appointmentId: string, by: ProviderMove): Promise<'moved' | 'already there'> {
    const bookingKey = await repository.bookingKeyOf(appointmentId);
    if (bookingKey === null) throw notFound('There is no such appointment.');
    const before = liveRowsOf(await repository.bookingRows(bookingKey), appointmentId);
    const first = before[0] as BookingRow;
    if (first.starts_ms === by.startsAt.getTime()) return 'already there';
    if (by.startsAt.getTime() <= clock.now().getTime()) throw validationError('startsAt', 'The new time has passed.');
    const from = new Date(first.starts_ms).toISOString();
    await booking.moveInPlace(
      {
        appointmentIds: before.map((row) => row.id),
        exams: before.map((row) => row.exam_slug),
        clinicSlug: first.clinic_slug,
        startsAt: by.startsAt.toISOString(),
      },
      {
        prepare: async (tx) => {
          // The same rows, still live, under lock: a change in between (a cancellation) refuses the move.
          const live = liveRowsOf(await repository.lockBookingRows(bookingKey, tx), appointmentId);
          if (live.map((row) => row.id).join() !== before.map((row) => row.id).join())
            throw conflict('The booking changed while it was being moved; send the move again.');
        },
        finish: async (tx, moved) => {
          const now = clock.now();
          // A move answers the patient's request to reschedule: the booking is firm at its new time.
          const requested = before.filter((row) => row.status === 'REQUEST_RESCHEDULE').map((row) => row.id);
          if (requested.length > 0) await repository.setStatus(requested, 'BOOKED', now, tx);
          await repository.logChange(
            {
              bookingKey,
              action: 'RESCHEDULE',
              fromStatus: first.status,
              toStatus: first.status === 'REQUEST_RESCHEDULE' ? 'BOOKED' : first.status,
              note: by.note,
              details: { by: by.actor, from: { startsAt: from }, to: { startsAt: by.startsAt.toISOString() } },
              now,
              actor: 'staff',
            },
            tx,
          );
          await repository.audit(
            {
              actor: by.actor,
              action: 'appointment.moved_by_provider',
              subjectType: 'appointment',
              subjectId: moved.rows.map((row) => row.id).join(','),
              details: { from, to: by.startsAt.toISOString() },
              now,
            },
            tx,
          );
          const summary = await summaryOf(tx, bookingKey);
          await confirmNewTime(
            tx,
            { bookingKey, summary, clinic: moved.clinic, providerName: moved.providerName },
            { publicUrl: deps.publicUrl, clock },
          );
        },
      },
    );
    return 'moved';
  };
}

export type MoveByProvider = ReturnType<typeof createProviderMove>;

declare module 'fastify' {
  interface FastifyInstance {
    /** A move by the provider's own system (the RIS's SIU^S13); the booking module makes it. */
    readonly moveByProvider: MoveByProvider;
  }
}
