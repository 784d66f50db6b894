import type { WaitlistClinicChoice, WaitlistOfferView, WaitlistStatus } from '@contract/api/waitlist';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, AppError, conflict } from '../../platform/errors';
import type { SignedLinks } from '../../platform/signed-links';
import { liveBookingRows } from '../appointments/public';
import { queueWaitlistNotice } from '../notifications/public';
import { OFFER_LINK } from './offers';
import { createWaitlistRepository, type OfferRow } from './repository';

/**
 * The patient's side of the waiting list (docs/rules/waitlist.md): joining and leaving it from the
 * appointment page, and answering an offer from its mail's signed link. Taking an offer moves the
 * booking to the offered time through the appointments' own reschedule (its rules, its mails, the
 * RIS's messages) with the offer's hold; one offer at a time may be accepted per freed time, so
 * two patients accepting at once give one booking, and the others are told it was taken.
 */

const DAY_MS = 86_400_000;

export interface WaitlistServiceDeps {
  db: Database;
  clock: Clock;
  publicUrl: string;
  links: () => Promise<SignedLinks>;
  /** The appointments' reschedule (idempotent by its key: the offer id, a UUID), with the offer's hold. */
  reschedule: (
    bookingKey: string,
    idempotencyKey: string,
    request: { context: 'RESCHEDULED'; clinicSlug: string; startsAt: string; holdId: string },
  ) => Promise<unknown>;
  log?: { info(data: object, message: string): void };
}

const INVALID_LINK = 'This offer link is not valid: it may have been changed or be too old. Please open your appointment instead.';

const CLOSED_MESSAGES: Record<Exclude<OfferRow['outcome'], 'offered'>, string> = {
  accepted: 'You have already moved your appointment to this time.',
  taken: 'Sorry, this earlier time has been taken by another patient. Your appointment stays as it was, and you stay on the waiting list.',
  declined: 'You kept your current time. You stay on the waiting list for an earlier one.',
  expired: 'This offer has ended: the earlier time was held for a limited time only. You stay on the waiting list.',
};

function closed(outcome: Exclude<OfferRow['outcome'], 'offered'>): AppError {
  return appError('waitlist_offer_closed', 409, CLOSED_MESSAGES[outcome], { outcome });
}

export function createWaitlistService(deps: WaitlistServiceDeps) {
  const { db, clock } = deps;
  const repository = createWaitlistRepository(db);

  async function offerOf(token: string): Promise<OfferRow> {
    const checked = (await deps.links()).verify(token, OFFER_LINK);
    const offer = checked.ok ? await repository.offer(checked.subject) : null;
    if (offer === null) {
      deps.log?.info({ reason: checked.ok ? 'unknown_offer' : checked.reason }, '[waitlist] offer link refused');
      throw appError('waitlist_offer_link_invalid', 400, INVALID_LINK);
    }
    return offer;
  }

  async function viewOf(offer: OfferRow): Promise<WaitlistOfferView> {
    const live = await liveBookingRows(db, offer.bookingKey);
    const first = live[0];
    const examNames = live.length > 0 ? live.map((row) => row.exam_name) : offer.examSlugs;
    // An offer past its time reads as expired before the sweep has marked it.
    const expired = offer.outcome === 'offered' && new Date(offer.expiresAt).getTime() <= clock.now().getTime();
    return {
      outcome: expired ? 'expired' : offer.outcome,
      offered: { startsAt: offer.startsAt, clinicName: offer.clinicName, examNames },
      current: first === undefined ? null : { startsAt: new Date(first.starts_ms).toISOString(), clinicName: first.clinic_name },
      expiresAt: offer.expiresAt,
      timeZone: offer.timeZone,
      appointmentUrl: `${deps.publicUrl}/appointments/${encodeURIComponent(offer.bookingKey)}`,
    };
  }

  /** Tells the others offered the same time that it was taken, and ends their offers. */
  async function tellOthers(taken: OfferRow): Promise<void> {
    await db.transaction(async (tx) => {
      const now = clock.now();
      for (const other of await repository.openOffersOf(taken.freedTimeId, tx)) {
        if (!(await repository.answer(other.id, 'taken', now, tx))) continue;
        await queueWaitlistNotice(
          tx,
          { kind: 'waitlistTaken', offer: { startsAt: other.startsAt, clinicName: other.clinicName } },
          other.bookingKey,
          await liveBookingRows(tx, other.bookingKey),
          { publicUrl: deps.publicUrl, clock },
        );
      }
      await repository.closeFreedTime(taken.freedTimeId, now, tx);
    });
  }

  /** A booking may wait while its first live appointment is more than a day away. */
  async function status(bookingKey: string): Promise<WaitlistStatus> {
    const entry = await repository.entry(bookingKey);
    const first = (await liveBookingRows(db, bookingKey))[0];
    const canWait = first !== undefined && first.starts_ms - clock.now().getTime() > DAY_MS;
    const waiting = entry?.status === 'waiting';
    return {
      waiting,
      clinics: waiting ? (entry?.clinics ?? 'same') : 'same',
      ...(await repository.placeOf(bookingKey)),
      since: waiting ? (entry?.createdAt ?? null) : null,
      canWait,
    };
  }

  return {
    status,

    async join(bookingKey: string, clinics: WaitlistClinicChoice = 'same'): Promise<WaitlistStatus> {
      const current = await status(bookingKey);
      if (!current.waiting && !current.canWait)
        throw conflict('This appointment cannot wait for an earlier time: it is no longer booked, or it is less than a day away.');
      await repository.join(bookingKey, clinics, clock.now());
      return status(bookingKey);
    },

    async leave(bookingKey: string): Promise<WaitlistStatus> {
      await repository.setStatus(bookingKey, 'left', clock.now());
      return status(bookingKey);
    },

    /** What the link names; changes nothing. */
    view: async (token: string): Promise<WaitlistOfferView> => viewOf(await offerOf(token)),

    async accept(token: string): Promise<WaitlistOfferView> {
      const offer = await offerOf(token);
      if (offer.outcome === 'accepted') return viewOf(offer);
      if (offer.outcome !== 'offered') throw closed(offer.outcome);
      if (new Date(offer.expiresAt).getTime() <= clock.now().getTime()) {
        await repository.answer(offer.id, 'expired', clock.now());
        throw closed('expired');
      }
      // One acceptance at a time per freed time: the second of two at once is told it was taken.
      if (!(await repository.claim(offer.freedTimeId, offer.id))) throw closed('taken');
      try {
        await deps.reschedule(offer.bookingKey, offer.id, {
          context: 'RESCHEDULED',
          clinicSlug: offer.clinicSlug,
          startsAt: offer.startsAt,
          holdId: offer.holdId,
        });
      } catch (error) {
        await repository.unclaim(offer.freedTimeId, offer.id);
        if (error instanceof AppError && error.code === 'slot_taken') {
          await repository.answer(offer.id, 'taken', clock.now());
          throw closed('taken');
        }
        throw error;
      }
      await db.transaction(async (tx) => {
        await repository.answer(offer.id, 'accepted', clock.now(), tx);
        await repository.setStatus(offer.bookingKey, 'moved', clock.now(), tx);
      });
      await tellOthers(offer);
      return viewOf({ ...offer, outcome: 'accepted' });
    },

    async decline(token: string): Promise<WaitlistOfferView> {
      const offer = await offerOf(token);
      if (offer.outcome === 'declined') return viewOf(offer);
      if (offer.outcome !== 'offered') throw closed(offer.outcome);
      await repository.answer(offer.id, 'declined', clock.now());
      return viewOf({ ...offer, outcome: 'declined' });
    },
  };
}

export type WaitlistService = ReturnType<typeof createWaitlistService>;
