import type { CountryCode } from 'libphonenumber-js';
import type { SmsInbound, SmsReplyOutcome } from '@contract/api/appointment-reply';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { validationError } from '../../platform/errors';
import { phoneKey } from '../../platform/sms/phone-key';
import { createSmsOutboxRepository } from '../../platform/sms/sms-outbox-repository';
import { mailContext } from '../notifications/public';
import type { ReminderReplies, ReplyAnswer } from './reminder-reply';
import { replyAnswerSmsText, type SmsReplyAnswer } from './reminder-sms';
import { createRemindersRepository } from './reminders-repository';
import { currentRows } from './change-rules';
import type { BookingRow } from './repository';

type TellKind = Exclude<SmsReplyAnswer['kind'], 'no_reminder'>;

/**
 * Replies to SMS reminders (docs/rules/reminders.md#replies), as the SMS provider's inbound
 * webhook delivers them: the first word says the answer (YES or NO, in English or Macedonian);
 * the reply answers the latest reminder sent to its number in the last REPLY_WINDOW_DAYS; the
 * patient is told by SMS what it did. Each provider message id is acted on once.
 */

/** Reminders go at most two weeks ahead (reminder_settings.lead_hours ≤ 336): older ones are not answered by a reply. */
const REPLY_WINDOW_DAYS = 15;
const DAY_MS = 86_400_000;

const WORDS: Record<ReplyAnswer | 'stop', readonly string[]> = {
  confirm: ['yes', 'y', 'yeah', 'yep', 'ok', 'okay', 'confirm', 'confirmed', 'да', 'da', 'потврди', 'potvrdi', 'потврдувам'],
  cancel: ['no', 'n', 'nope', 'cancel', 'не', 'ne', 'откажи', 'otkazi', 'откажувам'],
  // Carriers' opt-out words: never answered (the provider handles the opt-out itself).
  stop: ['stop', 'stopall', 'unsubscribe', 'end', 'quit', 'стоп'],
};

/** The answer an SMS's first word gives, or null when it gives none. */
export function readReply(text: string): ReplyAnswer | 'stop' | null {
  const first = text.normalize('NFKC').trim().toLocaleLowerCase().split(/\s+/u)[0] ?? '';
  const word = first.replace(/[^\p{L}\p{N}]/gu, '');
  for (const answer of ['confirm', 'cancel', 'stop'] as const) if (WORDS[answer].includes(word)) return answer;
  return null;
}

export interface SmsRepliesDeps {
  db: Database;
  clock: Clock;
  publicUrl: string;
  replies: ReminderReplies;
  country: CountryCode;
  /** SMS goes out (SMS_PROVIDER_URL): the patient is told what the reply did. */
  answerBySms: boolean;
}

export function createSmsReplies(deps: SmsRepliesDeps) {
  const { db, clock, replies } = deps;
  const reminders = createRemindersRepository(db);

  /** Tells the patient what their reply did, through the SMS outbox. */
  async function tellPatient(tx: Queryable, to: string, answer: SmsReplyAnswer): Promise<void> {
    if (!deps.answerBySms) return;
    await createSmsOutboxRepository(tx).enqueue(
      { kind: 'appointment_reply', recipient: to, text: replyAnswerSmsText(answer) },
      clock.now(),
      tx,
    );
  }

  /** What to tell about the booking: its first current appointment, the clinic's phone. */
  async function answerOf(tx: Queryable, kind: TellKind, rows: readonly BookingRow[]): Promise<SmsReplyAnswer> {
    const providerName = (await mailContext(tx, deps.publicUrl)).brand.name;
    const first = currentRows(rows)[0];
    if (first === undefined) return { kind: 'no_reminder', providerName };
    return {
      kind,
      appointment: {
        providerName,
        examName: first.exam_name,
        clinicName: first.clinic_name,
        startsAt: new Date(first.starts_ms),
        timeZone: first.time_zone,
      },
      phone: first.phone === '' ? null : first.phone,
      bookAgain: `${deps.publicUrl}/`,
    };
  }

  return {
    /** Takes one inbound SMS; answers what it did (the same again for a retried delivery). */
    async receive(message: SmsInbound): Promise<SmsReplyOutcome> {
      const from = phoneKey(message.from, deps.country);
      if (from === null) throw validationError('from', 'from must be a phone number of 6 to 15 digits.');
      const answer = readReply(message.text);
      const result = await db.transaction(async (tx) => {
        const now = clock.now();
        const earlier = await reminders.claimInbound(message.messageId, now, tx);
        if (earlier !== null) return { outcome: earlier, freed: null };
        if (answer === 'stop') {
          await reminders.recordInbound(message.messageId, 'stop', null, tx);
          return { outcome: 'stop' as const, freed: null };
        }
        const bookingKey = await reminders.latestSmsReminderTo(from, new Date(now.getTime() - REPLY_WINDOW_DAYS * DAY_MS), tx);
        if (bookingKey === null) {
          await reminders.recordInbound(message.messageId, 'no_reminder', null, tx);
          await tellPatient(tx, from, { kind: 'no_reminder', providerName: (await mailContext(tx, deps.publicUrl)).brand.name });
          return { outcome: 'no_reminder' as const, freed: null };
        }
        if (answer === null) {
          await reminders.recordInbound(message.messageId, 'not_understood', bookingKey, tx);
          await tellPatient(tx, from, await answerOf(tx, 'not_understood', await replies.rowsOf(tx, bookingKey)));
          return { outcome: 'not_understood' as const, freed: null };
        }
        const taken = await replies.answerIn(tx, bookingKey, answer, 'sms');
        const outcome: SmsReplyOutcome = taken.outcome === 'changed' ? (answer === 'confirm' ? 'confirmed' : 'cancelled') : taken.outcome;
        await reminders.recordInbound(message.messageId, outcome, bookingKey, tx);
        // Taken now or already so, the patient hears where it stands; refused, why.
        const told: TellKind =
          taken.outcome !== 'not_possible'
            ? answer === 'confirm'
              ? 'confirmed'
              : 'cancelled'
            : answer === 'confirm' && taken.state === 'WAITING'
              ? 'waiting'
              : 'not_possible';
        await tellPatient(tx, from, await answerOf(tx, told, taken.rows));
        return { outcome, freed: taken.freed };
      });
      if (result.freed !== null) replies.freed(result.freed.ids, result.freed.version);
      return result.outcome;
    },
  };
}

export type SmsReplies = ReturnType<typeof createSmsReplies>;
