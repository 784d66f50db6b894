import {
  WAITLIST_OFFER_ACCEPT_PATH,
  WAITLIST_OFFER_API_PATH,
  WAITLIST_OFFER_DECLINE_PATH,
  WaitlistOfferViewSchema,
  type WaitlistOfferView,
} from '@contract/api/waitlist';
import type { ApiClient } from '../../api/client';
import { getParsed, postParsed } from '../../api/parsed-request';

/** Typed calls of the waitlist offer page (src-contract/api/waitlist.ts): the offer mail's signed token is the credential. */
export function createWaitlistOfferApi(client: ApiClient) {
  const { http } = client;
  return {
    view: async (token: string): Promise<WaitlistOfferView> =>
      getParsed(http, WAITLIST_OFFER_API_PATH, WaitlistOfferViewSchema, { params: { token } }),
    accept: async (token: string): Promise<WaitlistOfferView> =>
      postParsed(http, WAITLIST_OFFER_ACCEPT_PATH, WaitlistOfferViewSchema, {}, { params: { token } }),
    decline: async (token: string): Promise<WaitlistOfferView> =>
      postParsed(http, WAITLIST_OFFER_DECLINE_PATH, WaitlistOfferViewSchema, {}, { params: { token } }),
  };
}

export type WaitlistOfferApi = ReturnType<typeof createWaitlistOfferApi>;
