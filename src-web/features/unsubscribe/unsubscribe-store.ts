import type { UnsubscribeStatus } from '@contract/api/unsubscribe';
import { SignedLinkPage, type SignedLinkPageState } from '../../platform/signed-link-page';
import { createUnsubscribeApi, type UnsubscribeApi } from './unsubscribe-api';
import type { FeatureStoreContext } from '../../stores/root-store';

/**
 * The unsubscribe page, /unsubscribe?token=… (docs/rules/notifications.md#unsubscribe): it reads
 * whom the link names and only changes anything on the button (link scanners open every link),
 * as every page a mail's signed link opens (platform/signed-link-page.ts, whose states it shows:
 * loading, ready, invalid for no token or one the server refused, failed with a Retry).
 */
export type UnsubscribeState = SignedLinkPageState;
/** What the last button press did, for the outcome message (null before any). */
export type UnsubscribeOutcome = 'unsubscribed' | 'resubscribed' | 'actionFailed' | null;

export class UnsubscribeStore {
  private readonly page: SignedLinkPage<UnsubscribeStatus, 'unsubscribed' | 'resubscribed'>;
  private readonly api: UnsubscribeApi;

  constructor(deps: { api: UnsubscribeApi }) {
    this.api = deps.api;
    this.page = new SignedLinkPage((token) => deps.api.status(token));
  }

  get state(): UnsubscribeState {
    return this.page.state;
  }

  get status(): UnsubscribeStatus | null {
    return this.page.view;
  }

  get outcome(): UnsubscribeOutcome {
    const outcome = this.page.outcome;
    if (outcome === null) return null;
    return outcome.kind === 'unsubscribed' || outcome.kind === 'resubscribed' ? outcome.kind : 'actionFailed';
  }

  /** Bumped with every outcome, so the page moves focus to it even when the same outcome comes twice. */
  get outcomeCount(): number {
    return this.page.outcomeCount;
  }

  get saving(): boolean {
    return this.page.saving;
  }

  open(token: string | null): Promise<void> {
    return this.page.open(token);
  }

  retry(): Promise<void> {
    return this.page.retry();
  }

  unsubscribe(): Promise<void> {
    return this.page.press((token) => this.api.unsubscribe(token), 'unsubscribed');
  }

  resubscribe(): Promise<void> {
    return this.page.press((token) => this.api.resubscribe(token), 'resubscribed');
  }
}

export function unsubscribeStoreOf({ client }: FeatureStoreContext): UnsubscribeStore {
  return new UnsubscribeStore({ api: createUnsubscribeApi(client) });
}
