import { makeAutoObservable, runInAction } from 'mobx';
import type { UnsubscribeStatus } from '@contract/api/unsubscribe';
import { ApiError } from '../../api/client';
import { createUnsubscribeApi, type UnsubscribeApi } from './unsubscribe-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { Loader, type LoadState } from '../../platform/load-state';

/**
 * The unsubscribe page, /unsubscribe?token=… (docs/rules/notifications.md#unsubscribe): it reads
 * whom the link names and only changes anything on the button (link scanners open every link).
 *
 * - loading: the link is being checked; ready: the address and its state are shown;
 * - invalid: no token, or the server refused it (altered, foreign or expired);
 * - failed: the check did not get through (network, server): Retry.
 */
export type UnsubscribeState = 'idle' | 'loading' | 'ready' | 'invalid' | 'failed';
/** What the last button press did, for the outcome message (null before any). */
export type UnsubscribeOutcome = 'unsubscribed' | 'resubscribed' | 'actionFailed' | null;

/** The page's words for where the link's check stands. */
const PAGE_STATE_OF: Record<LoadState, UnsubscribeState> = { idle: 'idle', loading: 'loading', loaded: 'ready', error: 'failed' };

export class UnsubscribeStore {
  status: UnsubscribeStatus | null = null;
  outcome: UnsubscribeOutcome = null;
  /** Bumped with every outcome, so the page moves focus to it even when the same outcome comes twice. */
  outcomeCount = 0;
  saving = false;

  readonly loader = new Loader();
  /** No token, or the server refused it (now or on a button). */
  private refused = false;
  private token: string | null = null;
  private readonly api: UnsubscribeApi;

  constructor(deps: { api: UnsubscribeApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'api' | 'token'>(this, { api: false, token: false, loader: false });
  }

  get state(): UnsubscribeState {
    return this.refused ? 'invalid' : PAGE_STATE_OF[this.loader.state];
  }

  async open(token: string | null): Promise<void> {
    this.token = token;
    this.status = null;
    this.outcome = null;
    this.refused = false;
    if (token === null || token.trim() === '') {
      this.loader.dispose();
      this.refused = true;
      return;
    }
    await this.loader.run(() => this.api.status(token), {
      loaded: (status) => (this.status = status),
      failed: (error) => void (this.refused = isRefusedLink(error)),
    });
  }

  retry(): Promise<void> {
    return this.open(this.token);
  }

  unsubscribe(): Promise<void> {
    return this.change('unsubscribed');
  }

  resubscribe(): Promise<void> {
    return this.change('resubscribed');
  }

  private async change(wanted: 'unsubscribed' | 'resubscribed'): Promise<void> {
    const token = this.token;
    if (token === null || this.saving) return;
    this.saving = true;
    try {
      const status = wanted === 'unsubscribed' ? await this.api.unsubscribe(token) : await this.api.resubscribe(token);
      runInAction(() => {
        this.status = status;
        this.settle(wanted);
      });
    } catch (error) {
      runInAction(() => {
        // A link refused now (it ran out while the page was open) reads like one refused at once.
        if (isRefusedLink(error)) this.refused = true;
        this.settle('actionFailed');
      });
    } finally {
      runInAction(() => {
        this.saving = false;
      });
    }
  }

  private settle(outcome: Exclude<UnsubscribeOutcome, null>): void {
    this.outcome = outcome;
    this.outcomeCount += 1;
  }
}

function isRefusedLink(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400;
}

export function unsubscribeStoreOf({ client }: FeatureStoreContext): UnsubscribeStore {
  return new UnsubscribeStore({ api: createUnsubscribeApi(client) });
}
