import { z } from 'zod';
import { BookingKeySchema } from './patient-access';
import { normaliseSearchText, searchText, searchTextMessages } from './text';

/**
 * The referring-doctor search of the check-in form (docs/rules/check-in.md#referring-doctors):
 * GET /api/secured/appointments/{bookingKey}/doctor_search/{text}, for the booking's APPOINTMENT
 * session or staff. The text is trimmed, its spaces collapsed and lower-cased, then must be 3 to 50
 * characters; each of its words is looked for in the doctor's name, practice, city, postcode and
 * provider number. At most DOCTOR_SEARCH_LIMIT doctors, best matches first.
 */

export const DOCTOR_SEARCH_MIN_LENGTH = 3;
export const DOCTOR_SEARCH_MAX_LENGTH = 50;
export const DOCTOR_SEARCH_LIMIT = 20;

export const DOCTOR_SEARCH_MESSAGES = searchTextMessages(DOCTOR_SEARCH_MIN_LENGTH, DOCTOR_SEARCH_MAX_LENGTH, 'a doctor');

/** What the server searches for: the web app normalises the same way before it decides to ask. */
export const normaliseDoctorSearch = normaliseSearchText;

export const DoctorSearchTextSchema = searchText(DOCTOR_SEARCH_MIN_LENGTH, DOCTOR_SEARCH_MAX_LENGTH, DOCTOR_SEARCH_MESSAGES);

export const DoctorSearchParamsSchema = z.strictObject({ bookingKey: BookingKeySchema, text: DoctorSearchTextSchema });
export type DoctorSearchParams = z.infer<typeof DoctorSearchParamsSchema>;

/** One doctor as the check-in form lists it; `id` is what the form sends as its referrer. */
export const ReferringDoctorSchema = z.object({
  id: z.uuid(),
  /** "Dr Jane Citizen". */
  displayName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Medicare provider number: 6 digits, a practice location character and a check character. */
  providerNumber: z.string(),
  practiceName: z.string(),
  city: z.string(),
  postcode: z.string(),
});
export type ReferringDoctor = z.infer<typeof ReferringDoctorSchema>;

export const DoctorSearchResponseSchema = z.object({ doctors: z.array(ReferringDoctorSchema).max(DOCTOR_SEARCH_LIMIT) });
export type DoctorSearchResponse = z.infer<typeof DoctorSearchResponseSchema>;
