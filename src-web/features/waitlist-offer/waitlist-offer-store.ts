import type { WaitlistOfferView } from '@contract/api/waitlist';
import type { FeatureStoreContext } from '../../stores/root-store';
import { SignedLinkPage } from '../../platform/signed-link-page';
import { createWaitlistOfferApi, type WaitlistOfferApi } from './waitlist-offer-api';

/**
 * The waitlist offer page, /waitlist-offer?token=… (docs/rules/waitlist.md): the offer the link
 * names, and the two answers (src-web/platform/signed-link-page.ts: nothing changes until a press).
 */
export class WaitlistOfferStore {
  readonly page: SignedLinkPage<WaitlistOfferView, 'accepted' | 'declined'>;
  private readonly api: WaitlistOfferApi;

  constructor(deps: { api: WaitlistOfferApi }) {
    this.api = deps.api;
    this.page = new SignedLinkPage(deps.api.view);
  }

  accept(): Promise<void> {
    return this.page.press(this.api.accept, 'accepted');
  }

  decline(): Promise<void> {
    return this.page.press(this.api.decline, 'declined');
  }
}

export function waitlistOfferStoreOf({ client }: FeatureStoreContext): WaitlistOfferStore {
  return new WaitlistOfferStore({ api: createWaitlistOfferApi(client) });
}
