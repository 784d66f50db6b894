import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { EmailPreview, EmailPreviewQuery } from '@contract/api/notifications';
import { createNotificationsApi, type NotificationsApi } from '../../api/notifications-api';
import { ApiError } from '../../api/client';
import type { LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';

/** The query parameters the page needs, in the order the message names them. */
export const PREVIEW_PARAMS = ['template', 'lang', 'referenceId'] as const;

/** Why there is no preview to show. */
export type PreviewProblem =
  /** The address lacks parameters: nothing was asked of the server. */
  | { kind: 'missingParams'; names: string[] }
  /** 401: no staff session (the page offers staff sign-in there). */
  | { kind: 'signInNeeded' }
  /** Any other refusal the server explained (400, 403, 404): its message is shown as it is. */
  | { kind: 'server'; message: string }
  /** No answer, or a 5xx: a generic text and Retry. */
  | { kind: 'unavailable' };

/**
 * The e-mail preview page (docs/rules/notifications.md#e-mail-preview): reads template, lang and
 * referenceId from the address and loads the rendered mail for staff.
 */
export class PreviewEmailStore {
  preview: EmailPreview | null = null;
  loadState: LoadState = 'idle';
  problem: PreviewProblem | null = null;

  private readonly api: NotificationsApi;
  private query: EmailPreviewQuery | null = null;
  /** The preview's HTML as a page of its own (GET .../preview_translated_email/html), for the frame. */
  htmlUrl: string | null = null;
  private generation = 0;

  constructor(api: NotificationsApi) {
    this.api = api;
    makeAutoObservable<this, 'api' | 'query' | 'generation'>(this, {
      api: false,
      query: false,
      generation: false,
      preview: observableRef,
    });
  }

  /** Loads the preview the address names; with parameters missing, says which and asks nothing. */
  async open(params: URLSearchParams): Promise<void> {
    this.generation += 1;
    const generation = this.generation;
    this.preview = null;
    const values = PREVIEW_PARAMS.map((name) => [name, params.get(name)?.trim() ?? ''] as const);
    const missing = values.filter(([, value]) => value === '').map(([name]) => name);
    if (missing.length > 0) {
      this.query = null;
      this.problem = { kind: 'missingParams', names: missing };
      this.loadState = 'error';
      return;
    }
    const query = Object.fromEntries(values) as EmailPreviewQuery;
    this.query = query;
    this.problem = null;
    this.loadState = 'loading';
    try {
      const preview = await this.api.previewEmail(query);
      if (generation !== this.generation) return;
      runInAction(() => {
        this.preview = preview;
        this.htmlUrl = this.api.previewHtmlUrl(query);
        this.loadState = 'loaded';
      });
    } catch (error) {
      if (generation !== this.generation) return;
      runInAction(() => {
        this.problem = problemOf(error);
        this.loadState = 'error';
      });
    }
  }

  /** Retry after a failure, with the same parameters (nothing to retry when some were missing). */
  async retry(): Promise<void> {
    const query = this.query;
    if (query !== null) await this.open(new URLSearchParams(query));
  }

  dispose(): void {
    this.generation += 1;
  }
}

function problemOf(error: unknown): PreviewProblem {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status >= 500) return { kind: 'unavailable' };
  if (error.status === 401) return { kind: 'signInNeeded' };
  // A body that was not the server's { code, message } has no message worth showing.
  if (error.message.startsWith('Request failed')) return { kind: 'unavailable' };
  return { kind: 'server', message: error.message };
}

/** The preview page's store, built once per visit (RootStore.featureStore). */
export function previewEmailStoreOf({ client }: FeatureStoreContext): PreviewEmailStore {
  return new PreviewEmailStore(createNotificationsApi(client));
}
