import { z } from 'zod';
import { InstantSchema } from './booking';

/**
 * The waiting list for an earlier time (docs/rules/waitlist.md): a patient with a booking asks for
 * an earlier time; when one frees up that fits, they are mailed an offer whose signed link opens
 * /waitlist-offer?token=…; the first to accept is moved there.
 */

/** /api/appointments/{bookingKey}/waitlist — GET: whether the booking waits; PUT: join; DELETE: leave (the booking's signed-in patient). */

/** Where an earlier time may be: the booking's own clinic, or any clinic of its region. */
export const WAITLIST_CLINIC_CHOICES = ['same', 'region'] as const;
export type WaitlistClinicChoice = (typeof WAITLIST_CLINIC_CHOICES)[number];

/** PUT's body: where an earlier time may be (default the booking's own clinic). */
export const WaitlistJoinSchema = z.strictObject({ clinics: z.enum(WAITLIST_CLINIC_CHOICES).default('same') }).nullish();

export const WaitlistStatusSchema = z.object({
  /** The booking waits for an earlier time. */
  waiting: z.boolean(),
  /** Where, while waiting (else what joining offers first: the booking's clinic). */
  clinics: z.enum(WAITLIST_CLINIC_CHOICES),
  /** The booking's clinic and its region, to word the choice. */
  clinicName: z.string().nullable(),
  regionName: z.string().nullable(),
  /** Since when (ISO), while waiting. */
  since: InstantSchema.nullable(),
  /** False when the booking cannot wait (nothing live, or too near: it starts within a day). */
  canWait: z.boolean(),
});
export type WaitlistStatus = z.infer<typeof WaitlistStatusSchema>;

/** GET: the offer a link names; changes nothing. */
export const WAITLIST_OFFER_API_PATH = '/api/waitlist-offer';
/** POST: take the earlier time (the booking moves there); idempotent for the one who took it. */
export const WAITLIST_OFFER_ACCEPT_PATH = '/api/waitlist-offer/accept';
/** POST: keep the current time (the patient stays on the list). */
export const WAITLIST_OFFER_DECLINE_PATH = '/api/waitlist-offer/decline';
/** The page the offer mail links: /waitlist-offer?token=…. */
export const WAITLIST_OFFER_PAGE_PATH = '/waitlist-offer';

export const WaitlistOfferQuerySchema = z.strictObject({
  token: z.string().min(1, 'token is required').max(1024, 'token is at most 1024 characters'),
});
export const WaitlistOfferBodySchema = z.strictObject({}).nullish();

/**
 * offered: open until expiresAt; accepted: this patient took it; taken: another patient did;
 * declined: this patient kept their time; expired: not taken in time.
 */
export const WAITLIST_OFFER_OUTCOMES = ['offered', 'accepted', 'taken', 'declined', 'expired'] as const;

export const WaitlistOfferViewSchema = z.object({
  outcome: z.enum(WAITLIST_OFFER_OUTCOMES),
  offered: z.object({ startsAt: InstantSchema, clinicName: z.string(), examNames: z.array(z.string()) }),
  /** The patient's appointment now (after accepting: the new time). */
  current: z.object({ startsAt: InstantSchema, clinicName: z.string() }).nullable(),
  expiresAt: InstantSchema,
  timeZone: z.string(),
  appointmentUrl: z.string(),
});
export type WaitlistOfferView = z.infer<typeof WaitlistOfferViewSchema>;
