import { RESUBSCRIBE_API_PATH, UNSUBSCRIBE_API_PATH, UnsubscribeStatusSchema, type UnsubscribeStatus } from '@contract/api/unsubscribe';
import type { ApiClient } from '../../api/client';
import { getParsed, postParsed } from '../../api/parsed-request';

/**
 * Typed calls of the one-click unsubscribe (src-contract/api/unsubscribe.ts): the signed token
 * from the mail is the credential of each; no session is needed.
 */
export function createUnsubscribeApi(client: ApiClient) {
  const { http } = client;
  return {
    /** Which address the link names (masked) and whether it is unsubscribed; changes nothing. */
    status: async (token: string): Promise<UnsubscribeStatus> =>
      getParsed(http, UNSUBSCRIBE_API_PATH, UnsubscribeStatusSchema, { params: { token } }),

    unsubscribe: async (token: string): Promise<UnsubscribeStatus> =>
      postParsed(http, UNSUBSCRIBE_API_PATH, UnsubscribeStatusSchema, {}, { params: { token } }),

    resubscribe: async (token: string): Promise<UnsubscribeStatus> =>
      postParsed(http, RESUBSCRIBE_API_PATH, UnsubscribeStatusSchema, {}, { params: { token } }),
  };
}

export type UnsubscribeApi = ReturnType<typeof createUnsubscribeApi>;
