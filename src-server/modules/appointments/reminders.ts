import type { CountryCode } from 'libphonenumber-js';
import { APPOINTMENT_REPLY_PAGE_PATH } from '@contract/api/appointment-reply';
import type { Database, Queryable } from '../../db/connection';
import { phoneKey } from '../../platform/sms/phone-key';
import { conflict, notFound } from '../../platform/errors';
import type { SignedLinks } from '../../platform/signed-links';
import { createSmsOutboxRepository, normalisePhoneNumber } from '../../platform/sms/sms-outbox-repository';
import type { Clock } from '../../platform/clock';
import { mailContext, queueAppointmentNotice } from '../notifications/public';
import { CHANGEABLE, currentRows } from './change-rules';
import { createAppointmentsRepository, type BookingRow } from './repository';
import { dayPlanLines } from './day-plan-lines';
import { dayPlanOf } from './day-plan-repository';
import { REPLY_LINK, replyLinkTtlMs } from './reminder-reply';
import { reminderSmsText } from './reminder-sms';
import { inQuietHours } from './quiet-hours';
import { createRemindersRepository } from './reminders-repository';

/**
 * Reminders before an appointment (docs/rules/reminders.md): at each of the provider's times
 * (hours before the start), the booking's patient is mailed when and where, with the link to the
 * appointment page. Once per reminder and start, whichever server sweeps and however often it
 * restarts (appointment_reminder); never for a booking no longer live; never in the clinic's quiet
 * hours (it goes when they end, if still before the start); only the nearest when several are due
 * at once (a server that was down); none a booking made after its time (it has its confirmation).
 */

/** Bookings reminded per lead and sweep; the next sweep takes the rest. */
const BATCH = 100;
const HOUR = 3_600_000;

export interface RemindersDeps {
  db: Database;
  clock: Clock;
  publicUrl: string;
  /** SMS is configured (SMS_PROVIDER_URL): reminders go by SMS too, to the booking's phone number. */
  sms: boolean;
  /** SMS replies are taken (SMS_INBOUND_TOKEN_SHA256): the SMS asks for YES or NO. */
  smsReplies?: boolean;
  /** SMS_DEFAULT_COUNTRY: how the number the SMS goes to is kept, to match a reply's. Default AU. */
  smsCountry?: CountryCode;
  /** The server's signed links: the mail offers "I will come" and "I cannot come" (reminder-reply.ts). */
  links?: () => Promise<SignedLinks>;
}

/** The reminder's answer page with its token, valid until a day after the start. */
function replyLinkOf(links: SignedLinks, publicUrl: string, bookingKey: string, startsAt: Date, now: Date): string {
  const token = links.sign({ ...REPLY_LINK, subject: bookingKey, ttlMs: replyLinkTtlMs(startsAt, now) });
  return `${publicUrl}${APPOINTMENT_REPLY_PAGE_PATH}?token=${encodeURIComponent(token)}`;
}

export function createReminders(deps: RemindersDeps) {
  const { db, clock } = deps;
  const reminders = createRemindersRepository(db);
  const appointments = createAppointmentsRepository(db);

  /** The reminder by SMS to the booking's phone number; false when it has none. */
  async function queueSms(tx: Queryable, bookingKey: string, live: readonly BookingRow[], now: Date): Promise<boolean> {
    const first = live[0];
    const to = first?.contact_number === undefined || first.contact_number === null ? null : normalisePhoneNumber(first.contact_number);
    if (first === undefined || to === null) return false;
    const text = reminderSmsText({
      takesReplies: deps.smsReplies === true,
      providerName: (await mailContext(tx, deps.publicUrl)).brand.name,
      examName: first.exam_name,
      clinicName: first.clinic_name,
      startsAt: new Date(first.starts_ms),
      timeZone: first.time_zone,
      link: `${deps.publicUrl}/appointments/${encodeURIComponent(bookingKey)}`,
    });
    await createSmsOutboxRepository(tx).enqueue({ kind: 'appointment_reminder', recipient: to, text }, now, tx);
    return true;
  }

  /** The reminder mail: when, where, the answers (with signed links) and the day plan; false when there is nobody to mail. */
  async function queueMail(
    tx: Queryable,
    bookingKey: string,
    live: readonly BookingRow[],
    startsAt: string,
    now: Date,
    links: SignedLinks | null,
  ) {
    const replyLink = links === null ? undefined : replyLinkOf(links, deps.publicUrl, bookingKey, new Date(startsAt), now);
    return queueAppointmentNotice(tx, 'reminder', bookingKey, live, {
      publicUrl: deps.publicUrl,
      clock,
      ...(replyLink === undefined ? {} : { replyLink }),
      dayPlan: dayPlanLines(await dayPlanOf(tx, bookingKey, now), 'en-AU'),
    });
  }

  /** The number an SMS goes to, as replies are matched (phoneKey); null without one. */
  const smsToOf = (live: readonly BookingRow[]): string | null => {
    const number = live[0]?.contact_number ?? null;
    return number === null ? null : phoneKey(number, deps.smsCountry ?? 'AU');
  };

  return {
    /**
     * Sends the reminder now, as staff ask (a patient who did not get it), whatever the provider's
     * times and quiet hours. Kept as a reminder of the hours left (whole, 1 to 336), so replies to
     * its SMS match and a farther automatic one no longer goes; a nearer one still does.
     */
    async remindNow(appointmentId: string): Promise<{ email: boolean; sms: boolean }> {
      const now = clock.now();
      const links = deps.links === undefined ? null : await deps.links();
      return db.transaction(async (tx) => {
        const bookingKey = await appointments.bookingKeyOf(appointmentId, tx);
        if (bookingKey === null) throw notFound('There is no such appointment.');
        const live = currentRows(await appointments.bookingRows(bookingKey, tx)).filter((row) => CHANGEABLE.has(row.status));
        const first = live[0];
        if (first === undefined || first.starts_ms <= now.getTime())
          throw conflict('This appointment is no longer coming up: there is nothing to remind the patient of.');
        const startsAt = new Date(first.starts_ms).toISOString();
        const leadHours = Math.min(336, Math.max(1, Math.floor((first.starts_ms - now.getTime()) / HOUR)));
        const reminder = { bookingKey, startsAt, leadHours };
        await reminders.claim(reminder, 'email', now, tx);
        const email = await queueMail(tx, bookingKey, live, startsAt, now, links);
        if (!deps.sms) return { email, sms: false };
        await reminders.claim(reminder, 'sms', now, tx, smsToOf(live));
        return { email, sms: await queueSms(tx, bookingKey, live, now) };
      });
    },

    /** Queues the reminders due now; answers how many were mailed. */
    async sweep(): Promise<number> {
      const settings = await reminders.settings();
      const now = clock.now();
      // Before the transactions: the signing key may first have to be read from the database.
      const links = deps.links === undefined ? null : await deps.links();
      let mailed = 0;
      // Nearest first: a nearer reminder queued makes the farther ones of that start never due.
      for (const leadHours of [...settings.leadHours].sort((a, b) => a - b)) {
        mailed += await db.transaction(async (tx) => {
          let queued = 0;
          for (const due of await reminders.due(now, leadHours, BATCH, tx)) {
            if (inQuietHours(now, due.timeZone, settings)) continue;
            const reminder = { bookingKey: due.bookingKey, startsAt: due.startsAt, leadHours };
            if (!(await reminders.claim(reminder, 'email', now, tx))) continue;
            const live = currentRows(await appointments.bookingRows(due.bookingKey, tx)).filter((row) => CHANGEABLE.has(row.status));
            if (await queueMail(tx, due.bookingKey, live, due.startsAt, now, links)) queued += 1;
            else await reminders.markSkipped(reminder, 'email', tx);
            if (!deps.sms) continue;
            if ((await reminders.claim(reminder, 'sms', now, tx, smsToOf(live))) && !(await queueSms(tx, due.bookingKey, live, now)))
              await reminders.markSkipped(reminder, 'sms', tx);
          }
          return queued;
        });
      }
      return mailed;
    },
  };
}
