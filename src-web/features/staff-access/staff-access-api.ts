import type { StaffUser } from '@contract/api/staff-access';
import type { ApiClient } from '../../api/client';

/**
 * Typed calls of /api/staff-access/* (src-contract/api/staff-access.ts, docs/rules/staff-access.md).
 * A 401 on them concerns the staff session, not a patient's, so they opt out of the patient
 * logout rule (`staffSession`); the staff store handles it.
 */
export function createStaffAccessApi(client: ApiClient) {
  const { http } = client;
  return {
    /** Hands the identity provider's access token over; the server opens its own session. */
    openSession: async (token: string): Promise<StaffUser> =>
      (await http.post<StaffUser>('/api/staff-access/session', { token }, { staffSession: true })).data,

    /** The signed-in staff member; 401 when this browser holds no live staff session. */
    me: async (): Promise<StaffUser> => (await http.get<StaffUser>('/api/staff-access/me', { staffSession: true })).data,

    logout: async (): Promise<void> => {
      await http.post('/api/staff-access/logout', undefined, { staffSession: true });
    },
  };
}

export type StaffAccessApi = ReturnType<typeof createStaffAccessApi>;
