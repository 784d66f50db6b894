import {
  CALLBACK_REQUESTS_PATH,
  CallbackRequestReceivedSchema,
  type CallbackRequest,
  type CallbackRequestReceived,
} from '@contract/api/callbacks';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/** The patient's one call (src-contract/api/callbacks.ts); the client solves the proof-of-work check and repeats it by itself. */
export function createCallbackApi(client: ApiClient) {
  return {
    request: async (body: CallbackRequest): Promise<CallbackRequestReceived> =>
      parseResponse(
        CALLBACK_REQUESTS_PATH,
        CallbackRequestReceivedSchema,
        (await client.http.post<unknown>(CALLBACK_REQUESTS_PATH, body)).data,
      ),
  };
}

export type CallbackApi = ReturnType<typeof createCallbackApi>;
