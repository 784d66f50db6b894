import type { Queryable } from '../../db/connection';

/**
 * The changes other modules make to the booking's own records (docs/server.md#table-ownership):
 * booking owns `appointment` and `booking_request`, because it creates their rows in the
 * transactions that keep times from overlapping; self-service, check-in and the booking-request
 * page change a row's status only through these statements.
 */
export function createBookingRecords(db: Queryable) {
  return {
    /** The clinic's system has the check-in: the appointment is CHECKED_IN (unless it was cancelled or moved on meanwhile). */
    async markCheckedIn(appointmentId: string, at: Date, tx: Queryable = db): Promise<void> {
      await tx.query(
        `update appointment set status = 'CHECKED_IN', updated_at = $2 where id = $1::uuid and status in ('BOOKED', 'CONFIRMED')`,
        [appointmentId, at.toISOString()],
      );
    },

    /** Sets a status on some of a booking's appointments (`confirm` also records when they were confirmed); answers the ids changed. */
    async setAppointmentStatus(ids: readonly string[], status: string, now: Date, tx: Queryable = db, confirm = false): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await tx.query<{ id: string }>(
        `update appointment set status = $2, updated_at = $3::timestamptz,
              confirmed_at = case when $4::boolean then coalesce(confirmed_at, $3::timestamptz) else confirmed_at end
        where id = any($1::uuid[]) returning id::text as id`,
        [`{${ids.join(',')}}`, status, now.toISOString(), confirm],
      );
      return rows.map((row) => row.id);
    },

    /** Sets a booking request's status on all its exams; answers the ids changed. */
    async setRequestStatus(bookingKey: string, status: string, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ id: string }>(
        'update booking_request set status = $2 where booking_key = $1 and status <> $2 returning id::text as id',
        [bookingKey, status],
      );
      return rows.map((row) => row.id);
    },

    /** Who takes the live exams of the request forward (docs/rules/chat.md#the-providers-chat-service). */
    async setRequestType(bookingKey: string, type: 'PATIENT' | 'CHAT', tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ id: string }>(
        `update booking_request set type = $2 where booking_key = $1 and status <> 'CANCELED' and type <> $2
         returning id::text as id`,
        [bookingKey, type],
      );
      return rows.map((row) => row.id);
    },
  };
}
