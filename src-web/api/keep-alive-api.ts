import type { ApiClient } from './client';

/**
 * The keep-alive pings of an open signed-in page (docs/rules/patient-access.md#keep-alive,
 * docs/rules/staff-access.md#keep-alive): 204, or 401 once the session has ended.
 */
export function createKeepAliveApi(client: ApiClient) {
  const { http } = client;
  return {
    /** A 401 here is the patient session's end: the ordinary logout-on-401 rule applies. */
    patient: async (): Promise<void> => {
      await http.post('/api/patient-access/keep-alive');
    },
    /** A staff 401 concerns the staff session only, never a patient's (`staffSession`). */
    staff: async (): Promise<void> => {
      await http.post('/api/staff-access/keep-alive', undefined, { staffSession: true });
    },
  };
}

export type KeepAliveApi = ReturnType<typeof createKeepAliveApi>;
