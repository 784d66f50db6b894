import type { BookingFormDetails, OrganisationSearchResponse } from '@contract/api/booking-form-details';
import type { ApiClient } from '../../api/client';

/**
 * The booking form's details (src-contract/api/booking-form-details.ts): the provider's lists and
 * the referring-organisation search. Built only by the details step's lazy module, so the booking
 * home's first chunk does not carry it (docs/web.md#budgets).
 */
export function createBookingFormDetailsApi(client: ApiClient) {
  return {
    formDetails: async (): Promise<BookingFormDetails> => (await client.http.get<BookingFormDetails>('/api/booking/form-details')).data,

    /** Practices of the directory matching the text (3 to 50 characters), name and suburb only. */
    organisations: async (q: string, signal?: AbortSignal): Promise<OrganisationSearchResponse> =>
      (await client.http.get<OrganisationSearchResponse>('/api/booking/referring-organisations', { params: { q }, signal })).data,
  };
}

export type BookingFormDetailsApi = ReturnType<typeof createBookingFormDetailsApi>;
