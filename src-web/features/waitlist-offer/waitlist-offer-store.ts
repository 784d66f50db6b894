import { makeAutoObservable, runInAction } from 'mobx';
import type { WaitlistOfferView } from '@contract/api/waitlist';
import { ApiError } from '../../api/client';
import type { FeatureStoreContext } from '../../stores/root-store';
import { Loader, type LoadState } from '../../platform/load-state';
import { createWaitlistOfferApi, type WaitlistOfferApi } from './waitlist-offer-api';

/**
 * The waitlist offer page, /waitlist-offer?token=… (docs/rules/waitlist.md): it reads the offer
 * the link names and changes nothing until a button is pressed (mail scanners open every link).
 * States as the reminder's answer page: loading, ready, invalid (no or a refused token), failed.
 */
export type OfferPageState = 'idle' | 'loading' | 'ready' | 'invalid' | 'failed';
/** What the last press did: taken (accepted or declined), refused (the server's words: taken by someone else, ended), or not through. */
export type OfferOutcome = { kind: 'accepted' | 'declined' | 'failed' } | { kind: 'refused'; message: string } | null;

const PAGE_STATE_OF: Record<LoadState, OfferPageState> = { idle: 'idle', loading: 'loading', loaded: 'ready', error: 'failed' };

export class WaitlistOfferStore {
  view: WaitlistOfferView | null = null;
  outcome: OfferOutcome = null;
  outcomeCount = 0;
  saving = false;
  readonly loader = new Loader();
  private refused = false;
  private token: string | null = null;
  private readonly api: WaitlistOfferApi;

  constructor(deps: { api: WaitlistOfferApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'api' | 'token'>(this, { api: false, token: false, loader: false });
  }

  get state(): OfferPageState {
    return this.refused ? 'invalid' : PAGE_STATE_OF[this.loader.state];
  }

  async open(token: string | null): Promise<void> {
    this.token = token;
    this.view = null;
    this.outcome = null;
    this.refused = false;
    if (token === null || token.trim() === '') {
      this.loader.dispose();
      this.refused = true;
      return;
    }
    await this.loader.run(() => this.api.view(token), {
      loaded: (view) => (this.view = view),
      failed: (error) => void (this.refused = error instanceof ApiError && error.status === 400),
    });
  }

  retry(): Promise<void> {
    return this.open(this.token);
  }

  async answer(kind: 'accepted' | 'declined'): Promise<void> {
    const token = this.token;
    if (token === null || this.saving) return;
    this.saving = true;
    try {
      const view = kind === 'accepted' ? await this.api.accept(token) : await this.api.decline(token);
      runInAction(() => {
        this.view = view;
        this.settle({ kind });
      });
    } catch (error) {
      const message = error instanceof ApiError && error.status === 409 ? error.message : null;
      const view = message === null ? null : await this.api.view(token).catch(() => null);
      runInAction(() => {
        if (view !== null) this.view = view;
        if (error instanceof ApiError && error.status === 400) this.refused = true;
        this.settle(message === null ? { kind: 'failed' } : { kind: 'refused', message });
      });
    } finally {
      runInAction(() => (this.saving = false));
    }
  }

  private settle(outcome: Exclude<OfferOutcome, null>): void {
    this.outcome = outcome;
    this.outcomeCount += 1;
  }
}

export function waitlistOfferStoreOf({ client }: FeatureStoreContext): WaitlistOfferStore {
  return new WaitlistOfferStore({ api: createWaitlistOfferApi(client) });
}
