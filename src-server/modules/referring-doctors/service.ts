import { DOCTOR_SEARCH_LIMIT, type DoctorSearchResponse, type ReferringDoctor } from '@contract/api/referring-doctors';
import { ORGANISATION_SEARCH_LIMIT, type OrganisationSearchResponse } from '@contract/api/booking-form-details';
import type { Queryable } from '../../db/connection';
import type { BookingActor } from '../booking-access/public';
import { notFound } from '../../platform/errors';
import { createReferringDoctorsRepository, type DoctorSearchTerms, type ReferringDoctorRow } from './repository';

/**
 * The referring-doctor search of the check-in form (docs/rules/check-in.md#referring-doctors).
 * The route has already checked the caller (the booking's APPOINTMENT session, or staff) and
 * normalised the text (src-contract/api/referring-doctors.ts).
 */

/** pg_trgm answers LIKE '%word%' from its index only when the word has at least 3 characters. */
const MIN_INDEXED_WORD_LENGTH = 3;
/** More words than this add cost, not better matches (the text is at most 50 characters). */
const MAX_WORDS = 6;

export const BOOKING_NOT_FOUND_MESSAGE = 'We could not find this booking.';

/**
 * What one search looks for. Words are split at anything but letters, digits, apostrophes and
 * hyphens ("O'Brien", "Smith-Jones") and each kept once. Those of 3 or more
 * characters are looked for inside each doctor's details; every word, however short, ranks the
 * doctors whose last name starts with it first ("jane s"). At most MAX_WORDS of each.
 */
export function doctorSearchTerms(text: string, limit = DOCTOR_SEARCH_LIMIT): DoctorSearchTerms {
  const words = [...new Set(text.split(/[^\p{L}\p{N}'-]+/u).filter((word) => word !== ''))];
  return {
    text,
    words: words.slice(0, MAX_WORDS),
    containedWords: words.filter((word) => word.length >= MIN_INDEXED_WORD_LENGTH).slice(0, MAX_WORDS),
    limit,
  };
}

function toReferringDoctor(row: ReferringDoctorRow): ReferringDoctor {
  return {
    id: row.id,
    displayName: `Dr ${row.first_name} ${row.last_name}`,
    firstName: row.first_name,
    lastName: row.last_name,
    providerNumber: row.provider_number,
    practiceName: row.practice_name,
    city: row.city,
    postcode: row.postcode,
  };
}

export function createReferringDoctorsService(deps: { db: Queryable }) {
  const repository = createReferringDoctorsRepository(deps.db);
  return {
    /**
     * Doctors matching `text` (already normalised), best first. A patient's session is for this
     * booking; staff may name any key, so for them a key no appointment has is a 404.
     */
    async search(bookingKey: string, text: string, caller: BookingActor): Promise<DoctorSearchResponse> {
      if (caller.kind === 'staff' && !(await repository.appointmentBookingExists(bookingKey))) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
      const rows = await repository.search(doctorSearchTerms(text));
      return { doctors: rows.map(toReferringDoctor) };
    },

    /**
     * The booking form's organisation search (docs/rules/booking.md#booking-form-details): the
     * directory's practices matching `text` (already normalised), by name and suburb only.
     */
    async practices(text: string): Promise<OrganisationSearchResponse> {
      return { organisations: await repository.practices(doctorSearchTerms(text, ORGANISATION_SEARCH_LIMIT)) };
    },
  };
}

export type ReferringDoctorsService = ReturnType<typeof createReferringDoctorsService>;
