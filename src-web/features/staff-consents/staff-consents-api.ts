import { StaffConsentsSchema, staffConsentsPath, staffSignaturePath, type StaffConsents } from '@contract/api/staff-consents';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/**
 * Staff reads of a booking's consent signatures (src-contract/api/staff-consents.ts), on the
 * staff session cookie: the forms, and a drawn signature as a PNG blob.
 */
export function createStaffConsentsApi(client: ApiClient) {
  const { http } = client;
  return {
    list: async (bookingKey: string): Promise<StaffConsents> => {
      const path = staffConsentsPath(bookingKey);
      return parseResponse(path, StaffConsentsSchema, (await http.get<unknown>(path)).data);
    },
    signature: async (bookingKey: string, formId: string): Promise<Blob> =>
      (await http.get<Blob>(staffSignaturePath(bookingKey, formId), { responseType: 'blob' })).data,
  };
}

export type StaffConsentsApi = ReturnType<typeof createStaffConsentsApi>;
