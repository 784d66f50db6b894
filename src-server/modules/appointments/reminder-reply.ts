import type { AppointmentReplyState, AppointmentReplyView } from '@contract/api/appointment-reply';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, type AppError } from '../../platform/errors';
import type { Hl7Outbox } from '../../platform/hl7/hl7-outbox';
import type { SignedLinkFailure, SignedLinks } from '../../platform/signed-links';
import type { AvailabilityStore } from '../availability/public';
import { mailContext } from '../notifications/public';
import { CHANGEABLE, currentRows } from './change-rules';
import { createAppointmentsRepository, type BookingRow } from './repository';
import { createStatusChanges } from './status-changes';

/**
 * Answers to a reminder (docs/rules/reminders.md#replies): "I will come" confirms the booking,
 * "I cannot come" cancels it, from the reminder mail's signed link (the page's buttons) or by
 * replying to the SMS (sms-replies.ts). A reminder asks for the answer, so a cancellation by reply
 * is taken until the appointment starts, inside the online cut-off too and without the cancel
 * questionnaire: a late cancellation frees a time a no-show would waste.
 */

/** The reminder's link: a token for one booking, for the patient. */
export const REPLY_LINK = { purpose: 'appointment.reply', audience: 'patient' } as const;
const DAY_MS = 86_400_000;

/** The link works until a day after the start: opened later, it still says what became of it. */
export function replyLinkTtlMs(startsAt: Date, now: Date): number {
  return Math.max(startsAt.getTime() + DAY_MS - now.getTime(), 60_000);
}

export type ReplyAnswer = 'confirm' | 'cancel';
export type ReplyChannel = 'email' | 'sms';
/** changed: the answer was taken; unchanged: it already was so; not_possible: the state allows no such answer. */
export type ReplyOutcome = 'changed' | 'unchanged' | 'not_possible';

const STATES_THAT_CANCEL: ReadonlySet<AppointmentReplyState> = new Set(['OPEN', 'CONFIRMED', 'WAITING']);

/** Where the booking stands for an answer (AppointmentReplyState), and its live appointments. */
export function replyStateOf(rows: readonly BookingRow[], now: number): { state: AppointmentReplyState; live: BookingRow[] } {
  const current = currentRows(rows);
  const live = current.filter((row) => CHANGEABLE.has(row.status));
  if (live.length === 0) return { state: current.some((row) => row.status === 'CANCELED') ? 'CANCELLED' : 'ENDED', live };
  if (live.some((row) => row.starts_ms <= now)) return { state: 'STARTED', live };
  if (live.every((row) => row.status === 'CONFIRMED')) return { state: 'CONFIRMED', live };
  if (live.some((row) => row.status === 'PENDING' || row.status === 'REQUEST_RESCHEDULE')) return { state: 'WAITING', live };
  return { state: 'OPEN', live };
}

export interface ReminderRepliesDeps {
  db: Database;
  clock: Clock;
  store: AvailabilityStore;
  publicUrl: string;
  hl7?: Hl7Outbox;
  /** The server's signed links (the reminder's link is one). */
  links: () => Promise<SignedLinks>;
  /** Why a link was refused is logged (never the token). */
  log?: { info(data: object, message: string): void };
}

const INVALID_LINK_MESSAGE =
  'This link is not valid: it may have been changed or be too old. Please open your appointment from a recent e-mail from us, or call the clinic.';

function invalidLink(): AppError {
  return appError('appointment_reply_link_invalid', 400, INVALID_LINK_MESSAGE);
}

/** Why an answer cannot be taken now, in the patient's words (409). */
function notPossible(answer: ReplyAnswer, state: AppointmentReplyState, phone: string | null): AppError {
  const call = phone === null ? 'Please call the clinic.' : `Please call the clinic on ${phone}.`;
  const because: Record<AppointmentReplyState, string> = {
    OPEN: 'This appointment cannot be changed here.',
    CONFIRMED: 'This appointment cannot be changed here.',
    WAITING: 'This appointment is still waiting for the clinic to confirm it; we will let you know.',
    CANCELLED: 'This appointment has been cancelled.',
    STARTED: 'The time of this appointment has come: it can no longer be changed here.',
    ENDED: 'This appointment is no longer booked.',
  };
  const message = answer === 'confirm' && state === 'WAITING' ? because.WAITING : `${because[state]} ${call}`;
  return appError('reply_not_possible', 409, message, { state });
}

export function createReminderReplies(deps: ReminderRepliesDeps) {
  const { db, clock } = deps;
  const repository = createAppointmentsRepository(db);
  const changes = createStatusChanges({
    repository,
    clock,
    store: deps.store,
    publicUrl: deps.publicUrl,
    ...(deps.hl7 === undefined ? {} : { hl7: deps.hl7 }),
  });

  /** The booking a token names; 400 for an altered, foreign or expired token. */
  async function bookingKeyOf(token: string): Promise<string> {
    const checked = (await deps.links()).verify(token, REPLY_LINK);
    if (!checked.ok) {
      refused(checked.reason);
      throw invalidLink();
    }
    return checked.subject;
  }

  function refused(reason: SignedLinkFailure | 'unknown_booking'): void {
    deps.log?.info({ reason }, '[appointment-reply] link refused');
  }

  async function viewOf(q: Queryable, bookingKey: string): Promise<AppointmentReplyView> {
    const rows = await repository.bookingRows(bookingKey, q);
    const first = rows[0];
    if (first === undefined) {
      refused('unknown_booking');
      throw invalidLink();
    }
    const { state, live } = replyStateOf(rows, clock.now().getTime());
    const shown = live.length > 0 ? live : currentRows(rows);
    return {
      state,
      canConfirm: state === 'OPEN',
      canCancel: STATES_THAT_CANCEL.has(state),
      providerName: (await mailContext(q, deps.publicUrl)).brand.name,
      clinic: { name: first.clinic_name, phone: first.phone === '' ? null : first.phone, timeZone: first.time_zone },
      appointments: shown.map((row) => ({
        examName: row.exam_name,
        startsAt: new Date(row.starts_ms).toISOString(),
        endsAt: new Date(row.ends_ms).toISOString(),
      })),
      appointmentUrl: `${deps.publicUrl}/appointments/${encodeURIComponent(bookingKey)}`,
    };
  }

  /**
   * Takes an answer inside the caller's transaction (the SMS reply keeps its record in the same
   * one). Answers the outcome, the booking's rows as they were, and what to free once committed.
   */
  async function answerIn(
    tx: Queryable,
    bookingKey: string,
    answer: ReplyAnswer,
    channel: ReplyChannel,
  ): Promise<{
    outcome: ReplyOutcome;
    state: AppointmentReplyState;
    rows: BookingRow[];
    freed: { ids: string[]; version: number } | null;
  }> {
    const rows = await repository.lockBookingRows(bookingKey, tx);
    if (rows.length === 0) throw invalidLink();
    const now = clock.now();
    const { state, live } = replyStateOf(rows, now.getTime());
    const via = `reminder-${channel}`;
    const done = (outcome: ReplyOutcome, freed: { ids: string[]; version: number } | null = null) => ({ outcome, state, rows, freed });
    if (answer === 'confirm') {
      if (state === 'CONFIRMED') return done('unchanged');
      if (state !== 'OPEN') return done('not_possible');
      await changes.moveLive(
        tx,
        bookingKey,
        live,
        { action: 'CONFIRM', toStatus: 'CONFIRMED', now, confirm: true, details: { via } },
        { action: 'appointment.confirmed', details: { via } },
      );
      return done('changed');
    }
    if (state === 'CANCELLED') return done('unchanged');
    if (!STATES_THAT_CANCEL.has(state)) return done('not_possible');
    const freed = await changes.cancelLive(
      tx,
      bookingKey,
      live,
      { now, reasonLabel: null, note: null, details: { via } },
      { from: live[0]?.status, via },
      'The patient cannot come (reply to a reminder)',
    );
    return done('changed', freed);
  }

  /** An answer from the reminder mail's page: the booking's view after it; 409 when it cannot be taken. */
  async function answerByLink(token: string, answer: ReplyAnswer): Promise<AppointmentReplyView> {
    // Verified before the transaction: the signing key may first have to be read from the database.
    const bookingKey = await bookingKeyOf(token);
    const result = await db.transaction((tx) => answerIn(tx, bookingKey, answer, 'email'));
    if (result.freed !== null) changes.freed(result.freed.ids, result.freed.version);
    if (result.outcome === 'not_possible') {
      const phone = result.rows[0]?.phone ?? '';
      throw notPossible(answer, result.state, phone === '' ? null : phone);
    }
    return viewOf(db, bookingKey);
  }

  return {
    /** What the link names and what may be answered; changes nothing. */
    view: async (token: string): Promise<AppointmentReplyView> => viewOf(db, await bookingKeyOf(token)),
    confirm: (token: string): Promise<AppointmentReplyView> => answerByLink(token, 'confirm'),
    cancel: (token: string): Promise<AppointmentReplyView> => answerByLink(token, 'cancel'),
    answerIn,
    /** The booking's rows, in the caller's transaction. */
    rowsOf: (q: Queryable, bookingKey: string): Promise<BookingRow[]> => repository.bookingRows(bookingKey, q),
    /** After answerIn's transaction committed: its freed time becomes bookable. */
    freed: changes.freed,
  };
}

export type ReminderReplies = ReturnType<typeof createReminderReplies>;
