import { randomUUID } from 'node:crypto';
import { WAITLIST_OFFER_PAGE_PATH } from '@contract/api/waitlist';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import type { SignedLinks } from '../../platform/signed-links';
import type { Queryable } from '../../db/connection';
import { createSmsOutboxRepository, normalisePhoneNumber } from '../../platform/sms/sms-outbox-repository';
import { liveBookingRows, providerQuietHoursEnd } from '../appointments/public';
import { mailContext, queueWaitlistNotice } from '../notifications/public';
import { misfit } from './fit';
import { waitlistOfferSmsText } from './offer-sms';
import { createWaitlistRepository, type CandidateRow, type FreedTimeRow } from './repository';

/**
 * Offering freed times to waiting patients (docs/rules/waitlist.md), once a minute: offers past
 * their time expire; each freed time still open goes, in turn, to the next waiting patients it
 * fits (in the order they joined): the first fitting booking's exams are held at that time for
 * offer_minutes, and up to batch_size bookings with the same exams are mailed the offer. A round
 * nobody took gives the time to the next round; a time nobody fits, or too near, is closed.
 * An offer made in the provider's quiet hours holds the time until offer_minutes after they end.
 * With an SMS provider the offer goes by SMS too, outside the quiet hours.
 */

export const OFFER_LINK = { purpose: 'waitlist.offer', audience: 'patient' } as const;
const MINUTE = 60_000;
/** Freed times looked at per sweep; the next sweep takes the rest. */
const BATCH = 20;

export interface OfferDeps {
  db: Database;
  clock: Clock;
  publicUrl: string;
  links: () => Promise<SignedLinks>;
  /** Booking's hold for an offer (booking's holdForOffer) and its release. */
  hold: (
    request: { exams: string[]; clinicSlug: string; startsAt: string },
    minutes: number,
  ) => Promise<{ holdId: string; expiresAt: string }>;
  releaseHold: (holdId: string) => Promise<void>;
  /** An SMS provider is configured: the offer goes by SMS too, outside the quiet hours. */
  sms?: boolean;
}

export function createWaitlistOffers(deps: OfferDeps) {
  const { db, clock } = deps;
  const repository = createWaitlistRepository(db);

  /** The first exam set, in the candidates' order, whose time can be held: the hold and who shares those exams. */
  async function holdFor(freed: FreedTimeRow, fitting: readonly CandidateRow[], minutes: number) {
    const tried = new Set<string>();
    for (const candidate of fitting) {
      const exams = candidate.examSlugs.join(',');
      if (tried.has(exams)) continue;
      tried.add(exams);
      try {
        const hold = await deps.hold({ exams: candidate.examSlugs, clinicSlug: freed.clinicSlug, startsAt: freed.startsAt }, minutes);
        return { hold, sharing: fitting.filter((other) => other.examSlugs.join(',') === exams) };
      } catch (error) {
        // Not offered for these exams at that time, or taken meanwhile: the next exam set may fit.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return null;
  }

  /**
   * How long a round's offer holds the time: offer_minutes; made in the quiet hours, offer_minutes
   * after they end, so the patients asleep when the mail came still have them in the morning
   * (the mail goes at once: a mail wakes nobody, an SMS would, so none goes then). A time
   * starting before then keeps offer_minutes.
   */
  async function holdOf(freed: FreedTimeRow, now: Date, offerMinutes: number): Promise<{ minutes: number; quiet: boolean }> {
    const quietEnd = await providerQuietHoursEnd(db, now, freed.timeZone);
    if (quietEnd === null) return { minutes: offerMinutes, quiet: false };
    const extended = Math.ceil((quietEnd.getTime() - now.getTime()) / MINUTE) + offerMinutes;
    return { minutes: new Date(freed.startsAt).getTime() - now.getTime() > extended * MINUTE ? extended : offerMinutes, quiet: true };
  }

  /** The offer by SMS to the booking's phone number, if it has one. */
  async function queueOfferSms(
    tx: Queryable,
    rows: Awaited<ReturnType<typeof liveBookingRows>>,
    offer: { freed: FreedTimeRow; heldUntil: string; link: string; now: Date },
  ): Promise<void> {
    const first = rows[0];
    const to = first?.contact_number === undefined || first.contact_number === null ? null : normalisePhoneNumber(first.contact_number);
    if (first === undefined || to === null) return;
    const text = waitlistOfferSmsText({
      providerName: (await mailContext(tx, deps.publicUrl)).brand.name,
      examName: first.exam_name,
      clinicName: offer.freed.clinicName,
      startsAt: new Date(offer.freed.startsAt),
      heldUntil: new Date(offer.heldUntil),
      timeZone: offer.freed.timeZone,
      link: offer.link,
    });
    await createSmsOutboxRepository(tx).enqueue({ kind: 'waitlist_offer', recipient: to, text }, offer.now, tx);
  }

  /** One round for one freed time: answers how many patients were offered it. */
  async function offerRound(freed: FreedTimeRow, links: SignedLinks): Promise<number> {
    const now = clock.now();
    const settings = await repository.settings();
    if (new Date(freed.startsAt).getTime() - now.getTime() < settings.offerMinutes * MINUTE) {
      await repository.closeFreedTime(freed.id, now);
      return 0;
    }
    // Claimed first: two servers sweeping at once never offer one round twice.
    const round = await repository.claimRound(freed);
    if (round === null) return 0;
    // The last round's hold, if it outlived its offers (all declined), lets this round hold the time.
    for (const holdId of await repository.holdsOf(freed.id)) await deps.releaseHold(holdId);
    const { minutes, quiet } = await holdOf(freed, now, settings.offerMinutes);
    const fitting = (await repository.candidates(freed, 50)).filter((candidate) => misfit(candidate, freed, now, minutes) === null);
    const held = fitting.length === 0 ? null : await holdFor(freed, fitting, minutes);
    if (held === null) {
      await repository.closeFreedTime(freed.id, now);
      return 0;
    }
    const chosen = held.sharing.slice(0, settings.batchSize);
    return db.transaction(async (tx) => {
      for (const candidate of chosen) {
        const id = randomUUID();
        await repository.insertOffer(
          {
            id,
            freedTimeId: freed.id,
            bookingKey: candidate.bookingKey,
            round,
            holdId: held.hold.holdId,
            clinicId: freed.clinicId,
            startsAt: freed.startsAt,
            examSlugs: candidate.examSlugs,
            now,
            expiresAt: held.hold.expiresAt,
          },
          tx,
        );
        const ttlMs = new Date(held.hold.expiresAt).getTime() - now.getTime() + 7 * 24 * 60 * MINUTE;
        const token = links.sign({ ...OFFER_LINK, subject: id, ttlMs });
        const link = `${deps.publicUrl}${WAITLIST_OFFER_PAGE_PATH}?token=${encodeURIComponent(token)}`;
        const rows = await liveBookingRows(tx, candidate.bookingKey);
        await queueWaitlistNotice(
          tx,
          {
            kind: 'waitlistOffer',
            offer: {
              startsAt: freed.startsAt,
              clinicName: freed.clinicName,
              expiresAt: held.hold.expiresAt,
              offeredAt: now.toISOString(),
              link,
            },
          },
          candidate.bookingKey,
          rows,
          { publicUrl: deps.publicUrl, clock },
        );
        if (deps.sms === true && !quiet) await queueOfferSms(tx, rows, { freed, heldUntil: held.hold.expiresAt, link, now });
      }
      return chosen.length;
    });
  }

  return {
    /** Expires the offers whose time ran out, then offers each open freed time to its next round; answers how many were offered. */
    async sweep(): Promise<number> {
      await repository.expireOffers(clock.now());
      // Before any transaction: the signing key may first have to be read from the database.
      const links = await deps.links();
      let offered = 0;
      for (const freed of await repository.openFreedTimes(BATCH)) offered += await offerRound(freed, links);
      return offered;
    },
  };
}

export type WaitlistOffers = ReturnType<typeof createWaitlistOffers>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The waiting list's offer sweep, as its job runs it every minute (tests run it at their clock's times). */
    readonly waitlistOffers: WaitlistOffers;
  }
}
