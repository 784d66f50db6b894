import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { EmailPreview, EmailPreviewOptions, EmailPreviewQuery, EmailTestSent, PreviewReference } from '@contract/api/notifications';
import type { SupportedLocale } from '@contract/api/locales';
import { createNotificationsApi, type NotificationsApi } from './notifications-api';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import { isSignInNeeded, refusalMessage } from '../../api/refusal';

/** The query parameters the page reads (the spec's), each preselecting its picker. */
export const PREVIEW_PARAMS = ['template', 'lang', 'referenceId'] as const;

/** The frame's width: a desktop mail client, or a phone (390 px, as a common phone's viewport). */
export type PreviewWidth = 'desktop' | 'phone';
export const PHONE_WIDTH = 390;

/** Why there is no preview to show. */
export type PreviewProblem =
  /** 401: no staff session (the page offers staff sign-in there). */
  | { kind: 'signInNeeded' }
  /** Any other refusal the server explained (400, 403, 404, 429): its message is shown as it is. */
  | { kind: 'server'; message: string }
  /** The chosen template needs a kind of record there is none of yet. */
  | { kind: 'noReference' }
  /** No answer, or a 5xx: a generic text and Retry. */
  | { kind: 'unavailable' };

/**
 * The e-mail preview page (docs/rules/notifications.md#e-mail-preview): pickers for template,
 * language and a recent record, preselected from the address's template, lang and referenceId;
 * the rendered mail for staff; and "send a test to me".
 */
export class PreviewEmailStore {
  options: EmailPreviewOptions | null = null;
  query: EmailPreviewQuery | null = null;
  preview: EmailPreview | null = null;
  readonly loader = new Loader();
  problem: PreviewProblem | null = null;
  /** The preview's HTML as a page of its own (GET .../preview_translated_email/html), for the frame. */
  htmlUrl: string | null = null;
  width: PreviewWidth = 'desktop';
  sending = false;
  sent: EmailTestSent | null = null;
  sendProblem: PreviewProblem | null = null;

  private readonly api: NotificationsApi;
  private params = new URLSearchParams();

  constructor(deps: { api: NotificationsApi }) {
    this.api = deps.api;
    makeAutoObservable<this, 'api' | 'params'>(this, {
      api: false,
      params: false,
      loader: false,
      preview: observableRef,
      options: observableRef,
    });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** The recent records the chosen template can be previewed with. */
  get references(): PreviewReference[] {
    const options = this.options;
    const template = options?.templates.find((entry) => entry.name === this.query?.template);
    return options === null || template === undefined ? [] : options.references[template.reference];
  }

  /**
   * Loads the pickers' choices once, then the preview the address names; a parameter the address
   * lacks takes the first choice (the template list's first, the page's language, the newest record).
   */
  async open(params: URLSearchParams, pageLocale: SupportedLocale): Promise<void> {
    this.params = params;
    this.sent = null;
    this.sendProblem = null;
    this.problem = null;
    await this.loader.run(() => this.read(params, pageLocale), {
      loaded: ({ query, preview }) => {
        this.preview = preview;
        if (preview === null) this.problem = { kind: 'noReference' };
        else this.htmlUrl = this.api.previewHtmlUrl(query);
      },
      stateAfter: ({ preview }) => (preview === null ? 'error' : 'loaded'),
      failed: (error) => {
        this.preview = null;
        this.problem = problemOf(error);
      },
    });
  }

  /**
   * The pickers' choices (asked once) and the query they make with the address, taken in at once
   * (the pickers stay when the preview fails), then its preview (none without a record).
   */
  private async read(params: URLSearchParams, pageLocale: SupportedLocale) {
    const isCurrent = this.loader.current();
    const options = this.options ?? (await this.api.previewOptions());
    const given = (name: (typeof PREVIEW_PARAMS)[number]) => params.get(name)?.trim() ?? '';
    const template = given('template') || options.templates[0]?.name || '';
    const lang = (given('lang') || (options.languages.includes(pageLocale) ? pageLocale : options.languages[0]) || 'en') as SupportedLocale;
    const kind = options.templates.find((entry) => entry.name === template)?.reference ?? 'booking';
    const referenceId = given('referenceId') || options.references[kind][0]?.id || '';
    const query: EmailPreviewQuery = { template, lang, referenceId };
    if (isCurrent()) {
      runInAction(() => {
        this.options = options;
        this.query = query;
      });
    }
    const preview = referenceId === '' ? null : await this.api.previewEmail(query);
    return { options, query, preview };
  }

  /**
   * The address after a picker changed: a new template keeps the record only when it is of the
   * same kind (a report id does not name a booking).
   */
  paramsWith(change: Partial<EmailPreviewQuery>): URLSearchParams {
    const current = this.query ?? { template: '', lang: 'en', referenceId: '' };
    const next = { ...current, ...change };
    if (change.template !== undefined && change.referenceId === undefined) {
      const kindOf = (name: string) => this.options?.templates.find((entry) => entry.name === name)?.reference;
      if (kindOf(change.template) !== kindOf(current.template)) next.referenceId = '';
    }
    return new URLSearchParams(Object.entries(next).filter(([, value]) => value !== ''));
  }

  setWidth(width: PreviewWidth): void {
    this.width = width;
  }

  /** Sends the mail on show to the signed-in staff member's own address. */
  async sendTest(): Promise<void> {
    const query = this.query;
    if (query === null || this.sending) return;
    this.sending = true;
    this.sent = null;
    this.sendProblem = null;
    try {
      const sent = await this.api.sendTest(query);
      runInAction(() => {
        this.sent = sent;
      });
    } catch (error) {
      runInAction(() => {
        this.sendProblem = problemOf(error);
      });
    } finally {
      runInAction(() => {
        this.sending = false;
      });
    }
  }

  /** Retry after a failure, with the same address. */
  async retry(pageLocale: SupportedLocale): Promise<void> {
    await this.open(this.params, pageLocale);
  }

  dispose(): void {
    this.loader.dispose();
  }
}

function problemOf(error: unknown): PreviewProblem {
  if (isSignInNeeded(error)) return { kind: 'signInNeeded' };
  const message = refusalMessage(error);
  return message === '' ? { kind: 'unavailable' } : { kind: 'server', message };
}

/** The preview page's store, built once per visit (RootStore.featureStore). */
export function previewEmailStoreOf({ client }: FeatureStoreContext): PreviewEmailStore {
  return new PreviewEmailStore({ api: createNotificationsApi(client) });
}
