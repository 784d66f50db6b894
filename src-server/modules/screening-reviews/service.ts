import { attachmentsBasePath } from '@contract/api/attachments';
import {
  SCREENING_REVIEW_LIST_CAP,
  SCREENING_REVIEW_MESSAGES,
  type ScreeningReview,
  type ScreeningReviewList,
} from '@contract/api/screening-reviews';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { conflict, notFound, validationError } from '../../platform/errors';
import type { Hl7Outbox } from '../../platform/hl7/hl7-outbox';
import { queueListedEntry, queueMarkedEntry, queueNote } from '../../platform/staff-queue-audit';
import { settleHeldBooking, type HeldBookingEnd } from '../appointments/public';
import type { AvailabilityStore } from '../availability/public';
import { queueScreeningReviewNotice } from '../notifications/public';
import { answerItems } from './answer-text';
import {
  createScreeningReviewsRepository,
  type HeldAppointmentRow,
  type ReviewAnswerRow,
  type ReviewDocumentRow,
  type ReviewRow,
} from './repository';

/**
 * Screenings a radiographer should judge (docs/rules/screening-review.md): a booking whose answers
 * fire REVIEW_BOOKING is written ON_HOLD with a pending review; staff approve it (BOOKED, the time
 * stays) or decline it with a note (cancelled, the time freed); an undecided review expires at its
 * time and is cancelled the same way. The patient is mailed each end.
 */

/** Reviews expired per sweep; the next sweep takes the rest. */
const EXPIRY_BATCH = 20;

export interface ScreeningReviewsDeps {
  db: Database;
  clock: Clock;
  store: AvailabilityStore;
  publicUrl: string;
  hl7: Hl7Outbox;
}

export function createScreeningReviews(deps: ScreeningReviewsDeps) {
  const { db, clock } = deps;
  const repository = createScreeningReviewsRepository(db);

  /**
   * Ends one pending review: the held appointments approved or cancelled, the review marked, the
   * patient mailed, in one transaction; then the freed time is offered again. 'gone' when the
   * booking was no longer held (cancelled meanwhile): the review is closed as expired, unmailed.
   */
  async function end(
    id: string,
    outcome: HeldBookingEnd,
    by: { ref: string; name: string } | null,
    note: string | null,
  ): Promise<'ended' | 'gone' | 'decided'> {
    const now = clock.now();
    const ended = await db.transaction(async (tx) => {
      const review = await repository.lock(id, tx);
      if (review === null) throw notFound(SCREENING_REVIEW_MESSAGES.notFound);
      if (review.status !== 'pending') return { kind: 'decided' as const };
      const actor = by?.ref ?? 'system';
      const settled = await settleHeldBooking(tx, review.booking_key, { outcome, actor, note, now, hl7: deps.hl7 });
      const status = settled === null ? 'expired' : outcome;
      await repository.decide(id, { status, at: now, byRef: by?.ref ?? null, byName: by?.name ?? null, note }, tx);
      if (settled === null) return { kind: 'gone' as const };
      await queueScreeningReviewNotice(tx, outcome, review.booking_key, settled.rows, outcome === 'declined' ? note : null, {
        publicUrl: deps.publicUrl,
        clock,
      });
      // The review's id, never the booking key (it grants the patient's access).
      await createAuditLogRepository(tx).record(
        queueMarkedEntry(actor, `screening_review_${outcome}`, { type: 'screening_review', id }, note, now),
        tx,
      );
      return { kind: 'ended' as const, freed: settled.freed };
    });
    if (ended.kind === 'ended' && ended.freed !== null && ended.freed.ids.length > 0)
      deps.store.applyCommitted([], ended.freed.ids, { version: ended.freed.version, bumps: 1 });
    return ended.kind;
  }

  async function decide(staff: { ref: string; name: string }, id: string, outcome: 'approved' | 'declined', given: string | undefined) {
    const note = queueNote(given);
    if (outcome === 'declined' && note === null) throw validationError('note', SCREENING_REVIEW_MESSAGES.noteRequired);
    const result = await end(id, outcome, staff, note);
    if (result === 'decided') throw conflict(SCREENING_REVIEW_MESSAGES.decided);
    if (result === 'gone') throw conflict(SCREENING_REVIEW_MESSAGES.noLongerHeld);
  }

  return {
    /** The pending reviews, the soonest to expire first, with the answers and documents to judge. */
    async list(staffRef: string): Promise<ScreeningReviewList> {
      const { rows, total } = await repository.pending(SCREENING_REVIEW_LIST_CAP);
      const keys = rows.map((row) => row.booking_key);
      const [held, answers, documents] = await Promise.all([
        repository.heldAppointments(keys),
        repository.answers(keys),
        repository.documents(keys),
      ]);
      const items = rows.flatMap((row) => {
        const item = toItem(
          row,
          held.filter((appointment) => appointment.booking_key === row.booking_key),
          answers.filter((answer) => answer.booking_key === row.booking_key),
          documents.filter((document) => document.booking_key === row.booking_key),
        );
        return item === null ? [] : [item];
      });
      await createAuditLogRepository(db).record(
        queueListedEntry(staffRef, 'screening_reviews_listed', { listed: items.length, open: total }, clock.now()),
      );
      return { items, openTotal: total };
    },

    approve: (staff: { ref: string; name: string }, id: string, note: string | undefined) => decide(staff, id, 'approved', note),
    decline: (staff: { ref: string; name: string }, id: string, note: string | undefined) => decide(staff, id, 'declined', note),

    /** Cancels the held bookings whose review is past its time (the job, once a minute); answers how many expired. */
    async expireDue(): Promise<number> {
      let expired = 0;
      for (const id of await repository.due(clock.now(), EXPIRY_BATCH)) {
        if ((await end(id, 'expired', null, null)) === 'ended') expired += 1;
      }
      return expired;
    },
  };
}

export type ScreeningReviews = ReturnType<typeof createScreeningReviews>;

const iso = (value: Date | string): string => new Date(value).toISOString();

function toItem(
  row: ReviewRow,
  held: readonly HeldAppointmentRow[],
  answers: readonly ReviewAnswerRow[],
  documents: readonly ReviewDocumentRow[],
): ScreeningReview | null {
  // Nothing held any more (cancelled meanwhile): nothing to judge; the sweep closes the review.
  const first = held[0];
  if (first === undefined) return null;
  const base = attachmentsBasePath('appointments', row.booking_key);
  return {
    id: row.id,
    status: 'open',
    bookingKey: row.booking_key,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    reason: row.reason,
    clinicName: first.clinic_name,
    startsAt: iso(first.starts_at),
    exams: held.map((appointment) => `${appointment.modality_name} - ${appointment.exam_name}`),
    patient: {
      name: [first.title, first.first_name, first.last_name].filter(Boolean).join(' '),
      dateOfBirth: first.date_of_birth,
      email: first.email,
      phone: first.contact_number,
    },
    answers: answers.map((answer) => ({ questionnaire: answer.title, items: answerItems(answer.json, answer.result) })),
    documents: documents.map((document) => ({ fileName: document.file_name, downloadUrl: `${base}/${document.id}/download` })),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The screening review queue; tests run its expiry sweep at their injected clock. */
    readonly screeningReviews: ScreeningReviews;
  }
}
