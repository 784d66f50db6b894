import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import { Loader } from '../../platform/load-state';
import type { SharedResults } from '@contract/api/result-shares';
import { ApiError } from '../../api/client';
import { createResultsApi } from '../../api/results-api';
import { createSharedResultsApi, type SharedResultsApi } from './shared-results-api';
import { paths } from '../../paths';
import { forgetShareToken, readShareToken, sessionStorageOf, storeShareToken, tokenFromFragment } from '../../platform/share-token';
import type { FeatureStoreContext } from '../../stores/root-store';
import { browserWindowOf, ImageOpener, type ImageOpenerDeps } from '../results/public';

/**
 * Where the page stands: loading; loaded; error (try again); badLink (no whole token and no
 * session: "This link is not complete"); leaving (to sign in or to /deny).
 */
export type SharedPageState = 'idle' | 'loading' | 'loaded' | 'error' | 'badLink' | 'leaving';

export type SharedResult = SharedResults['results'][number];

export interface SharedResultsStoreDeps extends ImageOpenerDeps {
  api: SharedResultsApi;
  /** sessionStorage (this tab), or null where the browser blocks it. */
  storage: Storage | null;
}

/** One shared report, with its own image opener. */
export class SharedResultItem {
  result: SharedResult;
  receivedAt: number;
  readonly images: ImageOpener;

  constructor(result: SharedResult, receivedAt: number, images: ImageOpener) {
    this.result = result;
    this.receivedAt = receivedAt;
    this.images = images;
    makeAutoObservable(this, { result: observableRef, images: false });
  }
}

/**
 * The contact's page, /results/shared#<token> (docs/rules/results.md#sharing): keeps the link's
 * token for this tab and takes it out of the address bar, sends a contact without a session to
 * sign in with it (/authentication?shared=true), then shows what was shared, read-only. A share
 * revoked or run out (410, on any request) sends the contact to /deny with its message.
 */
export class SharedResultsStore {
  shared: SharedResults | null = null;
  items: SharedResultItem[] = [];
  readonly loader = new Loader();
  /** The page left its load behind: an incomplete link, or on the way to sign in or /deny. */
  private ended: 'badLink' | 'leaving' | null = null;

  private readonly deps: SharedResultsStoreDeps;
  private token: string | null = null;

  constructor(deps: SharedResultsStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'token'>(this, {
      deps: false,
      token: false,
      loader: false,
      shared: observableRef,
      items: observableRef,
    });
  }

  /** A reload of results already shown keeps them on the page (no spinner). */
  get state(): SharedPageState {
    if (this.ended !== null) return this.ended;
    return this.loader.state === 'loading' && this.shared !== null ? 'loaded' : this.loader.state;
  }

  /**
   * Opens the page with the location's hash: a whole token replaces the stored one, a cut-off one
   * is refused; either way the fragment leaves the address bar (replaced, so Back does not bring it).
   */
  async open(hash: string): Promise<void> {
    this.loader.dispose();
    this.ended = null;
    const fragment = tokenFromFragment(hash);
    if (fragment.kind === 'token') storeShareToken(this.deps.storage, fragment.token);
    if (fragment.kind === 'garbled') forgetShareToken(this.deps.storage);
    if (fragment.kind !== 'none') {
      const navigator = this.deps.navigator();
      navigator.navigate(navigator.currentUrl(), { replace: true });
    }
    if (fragment.kind === 'garbled') {
      this.token = null;
      this.ended = 'badLink';
      return;
    }
    this.token = fragment.kind === 'token' ? fragment.token : readShareToken(this.deps.storage);
    await this.load();
  }

  /** Tries the load again after a failure. */
  async retry(): Promise<void> {
    await this.load();
  }

  /** Forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.loader.dispose();
  }

  /** A shared report's PDF link (inline or download). */
  pdfUrl(item: SharedResultItem, download: boolean): string {
    return this.deps.api.reportPdfUrl(item.result.resultId, download);
  }

  /**
   * Asks once more whether the share stands, as a PDF link is followed: the PDF opens in its own
   * tab, and this page leaves for /deny when the share was revoked or ran out meanwhile.
   */
  async recheck(): Promise<void> {
    const isCurrent = this.loader.current();
    try {
      await this.deps.api.sharedResults();
    } catch (error) {
      if (isCurrent()) this.leaveFor(error);
    }
  }

  /** Opens a shared report's images; a stale link is renewed by loading the shared results again. */
  async openImages(item: SharedResultItem): Promise<void> {
    const isCurrent = this.loader.current();
    await item.images.open({
      link: () => item.result.imageViewerLink,
      receivedAt: () => item.receivedAt,
      reload: () => this.reloadLink(item, isCurrent),
      isCurrent,
      handled: (error) => this.leaveFor(error),
    });
  }

  private async load(): Promise<void> {
    await this.loader.run(() => this.deps.api.sharedResults(), {
      loaded: (shared) => {
        this.shared = shared;
        const now = this.deps.now();
        this.items = shared.results.map((result) => new SharedResultItem(result, now, this.newOpener()));
      },
      failed: (error) => void this.leaveFor(error),
    });
  }

  /**
   * The page's answer to a refused request: 401 → sign in with the link's token (or, with no
   * token, the incomplete-link message); share_revoked or share_expired → /deny. True when handled.
   */
  private leaveFor(error: unknown): boolean {
    if (!(error instanceof ApiError) || error.kind !== 'http') return false;
    if (error.status === 401) {
      if (this.token === null) {
        this.ended = 'badLink';
        return true;
      }
      this.go(paths.authentication({ returnUrl: this.local(paths.sharedResults()), shared: true }));
      return true;
    }
    if (error.code === 'share_revoked' || error.code === 'share_expired') {
      this.go(`${paths.deny()}?${error.code === 'share_expired' ? 'resultsExpired' : 'revoked'}=true`);
      return true;
    }
    return false;
  }

  /** A path of this portal, inside /iframe when the page is embedded. */
  private local(path: string): string {
    return paths.inLayoutOf(this.deps.navigator().currentUrl(), path);
  }

  private go(path: string): void {
    this.ended = 'leaving';
    this.deps.navigator().navigate(this.local(path), { replace: true });
  }

  private async reloadLink(item: SharedResultItem, isCurrent: () => boolean): Promise<string | null> {
    const shared = await this.deps.api.sharedResults();
    if (!isCurrent()) return null;
    const again = shared.results.find((result) => result.resultId === item.result.resultId);
    if (again === undefined) return null;
    runInAction(() => {
      item.result = again;
      item.receivedAt = this.deps.now();
    });
    return again.imageViewerLink;
  }

  private newOpener(): ImageOpener {
    return new ImageOpener(this.deps);
  }
}

/** The shared results page's store, built once per visit (RootStore.featureStore). */
export function sharedResultsStoreOf({ client, window, navigator }: FeatureStoreContext): SharedResultsStore {
  const results = createResultsApi(client);
  return new SharedResultsStore({
    api: createSharedResultsApi(client),
    imageViewer: (link) => results.imageViewer(link),
    storage: sessionStorageOf(window),
    navigator,
    browser: browserWindowOf(window),
    now: () => Date.now(),
  });
}
