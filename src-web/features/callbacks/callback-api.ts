import {
  CALLBACK_REQUESTS_PATH,
  CallbackRequestReceivedSchema,
  type CallbackRequest,
  type CallbackRequestReceived,
} from '@contract/api/callbacks';
import type { ApiClient } from '../../api/client';
import { postParsed } from '../../api/parsed-request';

/** The patient's one call (src-contract/api/callbacks.ts); the client solves the proof-of-work check and repeats it by itself. */
export function createCallbackApi(client: ApiClient) {
  return {
    request: async (body: CallbackRequest): Promise<CallbackRequestReceived> =>
      postParsed(client.http, CALLBACK_REQUESTS_PATH, CallbackRequestReceivedSchema, body),
  };
}

export type CallbackApi = ReturnType<typeof createCallbackApi>;
