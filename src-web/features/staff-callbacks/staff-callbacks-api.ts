import {
  STAFF_CALLBACK_REQUESTS_PATH,
  StaffCallbackListSchema,
  staffCallbackCalledPath,
  type StaffCallbackList,
} from '@contract/api/callbacks';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/** The staff queue's calls (staff, admin; src-contract/api/callbacks.ts). A 401 concerns the staff session, not a patient's. */
export function createStaffCallbacksApi(client: ApiClient) {
  const { http } = client;
  return {
    list: async (): Promise<StaffCallbackList> =>
      parseResponse(
        STAFF_CALLBACK_REQUESTS_PATH,
        StaffCallbackListSchema,
        (await http.get<unknown>(STAFF_CALLBACK_REQUESTS_PATH, { staffSession: true })).data,
      ),
    markCalled: async (id: string, note: string): Promise<void> => {
      await http.post(staffCallbackCalledPath(id), note === '' ? {} : { note }, { staffSession: true });
    },
  };
}

export type StaffCallbacksApi = ReturnType<typeof createStaffCallbacksApi>;
