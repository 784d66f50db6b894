import type { SmsReplyOutcome } from '@contract/api/appointment-reply';
import type { Queryable } from '../../db/connection';

/** The provider's reminder settings, the reminders queued (migration 0042) and the SMS replies taken (0043). */

export type ReminderSettings = {
  /** Hours before the start, nearest last or first: the sweep sorts them. */
  leadHours: number[];
  /** HH:MM, the clinic's local time. */
  quietStart: string;
  quietEnd: string;
};

export type ReminderChannel = 'email' | 'sms';

export type Reminder = { bookingKey: string; startsAt: string; leadHours: number };

export type DueReminder = {
  bookingKey: string;
  /** The booking's first live appointment's start (ISO). */
  startsAt: string;
  timeZone: string;
};

/** The statuses that still hold a time the patient is coming for. */
const LIVE = `('BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE')`;

export function createRemindersRepository(db: Queryable) {
  return {
    async settings(tx: Queryable = db): Promise<ReminderSettings> {
      const [row] = await tx.query<ReminderSettings>(
        `select lead_hours as "leadHours", to_char(quiet_start, 'HH24:MI') as "quietStart", to_char(quiet_end, 'HH24:MI') as "quietEnd"
           from reminder_settings where id = 1`,
      );
      if (row === undefined) throw new Error('reminder_settings has no row');
      return row;
    },

    /**
     * Bookings whose reminder `leadHours` before their first live start is due now: the start is
     * within that many hours, it was booked before that (a booking made later has its confirmation),
     * and neither this reminder nor a nearer one was queued for that start.
     */
    async due(now: Date, leadHours: number, limit: number, tx: Queryable = db): Promise<DueReminder[]> {
      return tx.query<DueReminder>(
        `with first_live as (
           select distinct on (a.booking_key) a.booking_key, lower(a.during) as starts_at, a.created_at, c.time_zone
             from appointment a join clinic c on c.id = a.clinic_id
            where a.status in ${LIVE} and a.booking_key is not null
              and lower(a.during) > $1 and lower(a.during) <= $1 + make_interval(hours => $2)
            order by a.booking_key, lower(a.during))
         select f.booking_key as "bookingKey", to_char(f.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "startsAt",
                f.time_zone as "timeZone"
           from first_live f
          where f.created_at <= f.starts_at - make_interval(hours => $2)
            and not exists (select 1 from appointment_reminder r
                             where r.booking_key = f.booking_key and r.starts_at = f.starts_at and r.lead_hours <= $2)
          order by f.starts_at
          limit $3`,
        [now.toISOString(), leadHours, limit],
      );
    },

    /**
     * Claims the reminder on a channel: false when another sweep (another server) claimed it first.
     * An SMS keeps the number it goes to (phoneKey), so a reply from it finds this booking.
     */
    async claim(
      reminder: Reminder,
      channel: ReminderChannel,
      now: Date,
      tx: Queryable = db,
      smsTo: string | null = null,
    ): Promise<boolean> {
      const rows = await tx.query(
        `insert into appointment_reminder (booking_key, starts_at, lead_hours, channel, outcome, queued_at, sms_to)
         values ($1, $2, $3, $4, 'sent', $5, $6) on conflict do nothing returning 1`,
        [reminder.bookingKey, reminder.startsAt, reminder.leadHours, channel, now.toISOString(), smsTo],
      );
      return rows.length === 1;
    },

    /** The booking of the latest SMS reminder sent to a number since `since`, or null. */
    async latestSmsReminderTo(smsTo: string, since: Date, tx: Queryable = db): Promise<string | null> {
      const [row] = await tx.query<{ booking_key: string }>(
        `select booking_key from appointment_reminder
          where sms_to = $1 and channel = 'sms' and outcome = 'sent' and queued_at >= $2
          order by queued_at desc, starts_at desc limit 1`,
        [smsTo, since.toISOString()],
      );
      return row?.booking_key ?? null;
    },

    /**
     * Claims an inbound SMS by the provider's message id: null when new (the caller acts on it),
     * else the outcome kept the first time (a retried delivery). A concurrent delivery of the same
     * id waits here for the first's transaction.
     */
    async claimInbound(messageId: string, now: Date, tx: Queryable = db): Promise<SmsReplyOutcome | null> {
      const claimed = await tx.query(
        `insert into sms_inbound_reply (message_id, outcome, received_at) values ($1, 'not_understood', $2)
         on conflict do nothing returning 1`,
        [messageId, now.toISOString()],
      );
      if (claimed.length === 1) return null;
      const [row] = await tx.query<{ outcome: SmsReplyOutcome }>(`select outcome from sms_inbound_reply where message_id = $1`, [
        messageId,
      ]);
      return row?.outcome ?? 'not_understood';
    },

    async recordInbound(messageId: string, outcome: SmsReplyOutcome, bookingKey: string | null, tx: Queryable = db): Promise<void> {
      await tx.query(`update sms_inbound_reply set outcome = $2, booking_key = $3 where message_id = $1`, [messageId, outcome, bookingKey]);
    },

    /** Nobody to send it to on this channel (no address or number, unsubscribed). */
    async markSkipped(reminder: Reminder, channel: ReminderChannel, tx: Queryable = db): Promise<void> {
      await tx.query(
        `update appointment_reminder set outcome = 'skipped'
          where booking_key = $1 and starts_at = $2 and lead_hours = $3 and channel = $4`,
        [reminder.bookingKey, reminder.startsAt, reminder.leadHours, channel],
      );
    },
  };
}
