import { RESUBSCRIBE_API_PATH, UNSUBSCRIBE_API_PATH, UnsubscribeStatusSchema, type UnsubscribeStatus } from '@contract/api/unsubscribe';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/**
 * Typed calls of the one-click unsubscribe (src-contract/api/unsubscribe.ts): the signed token
 * from the mail is the credential of each; no session is needed.
 */
export function createUnsubscribeApi(client: ApiClient) {
  const { http } = client;
  return {
    /** Which address the link names (masked) and whether it is unsubscribed; changes nothing. */
    status: async (token: string): Promise<UnsubscribeStatus> =>
      parseResponse(
        UNSUBSCRIBE_API_PATH,
        UnsubscribeStatusSchema,
        (await http.get<unknown>(UNSUBSCRIBE_API_PATH, { params: { token } })).data,
      ),

    unsubscribe: async (token: string): Promise<UnsubscribeStatus> =>
      parseResponse(
        UNSUBSCRIBE_API_PATH,
        UnsubscribeStatusSchema,
        (await http.post<unknown>(UNSUBSCRIBE_API_PATH, {}, { params: { token } })).data,
      ),

    resubscribe: async (token: string): Promise<UnsubscribeStatus> =>
      parseResponse(
        RESUBSCRIBE_API_PATH,
        UnsubscribeStatusSchema,
        (await http.post<unknown>(RESUBSCRIBE_API_PATH, {}, { params: { token } })).data,
      ),
  };
}

export type UnsubscribeApi = ReturnType<typeof createUnsubscribeApi>;
