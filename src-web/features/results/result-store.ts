import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { ImageViewerResponse } from '@contract/api/image-viewer';
import type { PatientResult } from '@contract/api/results';
import { ApiError } from '../../api/client';
import { createResultsApi, type ResultsApi } from '../../api/results-api';
import { isEmbeddedPath, paths } from '../../paths';
import type { LoadState } from '../../platform/load-state';
import { safeInternalPath, safeRedirectUrl } from '../../platform/safe-url';
import { loadSignedInSummary, loadStateOf } from '../../platform/signed-in-summary';
import type { FeatureStoreContext } from '../../stores/root-store';
import type { PortalNavigator } from '../../stores/session-store';
import { isLinkStale } from './image-link';

/** The sign-in types that open a result (src-contract/api/patient-access.ts RESULT_SIGN_IN_TYPES). */
export type ResultSignInType = 'APPOINTMENT_RESULTS' | 'PATIENT_PORTAL';

/**
 * Why the images did not open (spec point 8): no viewer URL could be made
 * (message.error_generating_images_url), the link gives no access (403,
 * message.user_not_have_access_to_images), or the call failed otherwise.
 */
export type ImagesProblem = 'noUrl' | 'noAccess' | 'failed';

/** How the page leaves for a page outside the app (the viewer, the PACS portal). */
export interface BrowserWindow {
  /** The same tab goes there. */
  assign(url: string): void;
  /** A new top-level tab (from inside a provider's frame, where a viewer would be cramped). */
  openInNewTab(url: string): void;
}

export interface ResultStoreDeps {
  api: ResultsApi;
  /** The authenticated check (PatientAccessStore.ensureSignedIn): the sign-in page when needed. */
  ensureSignedIn: (bookingKey: string, type: ResultSignInType) => Promise<boolean>;
  navigator: () => PortalNavigator;
  browser: BrowserWindow;
  /** Milliseconds now (the browser's clock), to know when the image link has gone stale. */
  now: () => number;
}

/**
 * The patient's result page (docs/rules/results.md): the authenticated check, then the result of
 * the booking's appointment (released report, release time, or not available yet) and opening
 * its images through the signed link.
 */
export class ResultStore {
  bookingKey: string | null = null;
  type: ResultSignInType = 'APPOINTMENT_RESULTS';
  result: PatientResult | null = null;
  loadState: LoadState = 'idle';
  /** The images are being opened (the button waits). */
  openingImages = false;
  imagesProblem: ImagesProblem | null = null;

  private readonly deps: ResultStoreDeps;
  /** Bumped by open() and dispose() so an answer for an earlier open is ignored. */
  private generation = 0;
  /** When (browser clock) the current result, and so its image link, arrived. */
  private receivedAt = 0;

  constructor(deps: ResultStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'generation' | 'receivedAt'>(this, {
      deps: false,
      generation: false,
      receivedAt: false,
      result: observableRef,
    });
  }

  /** Opens the page for a booking: the authenticated check for the type (sign-in when needed), then the result. */
  async open(bookingKey: string, type: ResultSignInType): Promise<void> {
    this.generation += 1;
    const generation = this.generation;
    if (this.bookingKey !== bookingKey || this.type !== type) this.result = null;
    this.bookingKey = bookingKey;
    this.type = type;
    this.imagesProblem = null;
    this.loadState = 'loading';
    const load = await loadSignedInSummary({
      signIn: () => this.deps.ensureSignedIn(bookingKey, type),
      summary: () => this.deps.api.result(bookingKey),
      isCurrent: () => generation === this.generation,
    });
    if (load.kind === 'superseded') return;
    runInAction(() => {
      if (load.kind === 'loaded') this.received(load.summary);
      this.loadState = loadStateOf(load);
    });
  }

  /** Tries the load again after a failure. */
  async retry(): Promise<void> {
    if (this.bookingKey !== null) await this.open(this.bookingKey, this.type);
  }

  /** Forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.generation += 1;
    this.openingImages = false;
  }

  /** The report PDF's link: inline (view) or as an attachment (download). */
  reportPdfUrl(download: boolean): string | null {
    return this.bookingKey === null ? null : this.deps.api.reportPdfUrl(this.bookingKey, download);
  }

  /** The signed image link of a released report with a study, else null (no View images). */
  get imageViewerLink(): string | null {
    return this.result?.state === 'RELEASED' ? this.result.imageViewerLink : null;
  }

  /**
   * Opens the images (docs/rules/results.md, spec point 4 Image viewer link): a link that sat
   * here longer than it lives is replaced first (the result again); then GET /api/image_viewer
   * says where to go. A link the server calls EXPIRED although it was not fresh is replaced
   * once more before its redirect is followed.
   */
  async openImages(): Promise<void> {
    const bookingKey = this.bookingKey;
    let link = this.imageViewerLink;
    if (bookingKey === null || link === null || this.openingImages) return;
    const generation = this.generation;
    this.openingImages = true;
    this.imagesProblem = null;
    try {
      let fresh = false;
      if (isLinkStale(link, this.receivedAt, this.deps.now())) {
        link = await this.reloadLink(bookingKey, generation);
        fresh = true;
      }
      if (link === null) return;
      let answer = await this.deps.api.imageViewer(link);
      if (answer.imageViewerLinkStatus === 'EXPIRED' && !fresh) {
        link = await this.reloadLink(bookingKey, generation);
        if (link === null) return;
        answer = await this.deps.api.imageViewer(link);
      }
      if (generation === this.generation) this.follow(answer);
    } catch (error) {
      runInAction(() => {
        if (generation !== this.generation) return;
        // A 401 went to sign-in already (the client's rule).
        if (error instanceof ApiError && error.status === 401) return;
        this.imagesProblem = error instanceof ApiError && error.status === 403 ? 'noAccess' : 'failed';
      });
    } finally {
      runInAction(() => {
        if (generation === this.generation) this.openingImages = false;
      });
    }
  }

  private received(result: PatientResult): void {
    this.result = result;
    this.receivedAt = this.deps.now();
  }

  /** The result again, for a new image link; null when this open is over or the result has no link any more. */
  private async reloadLink(bookingKey: string, generation: number): Promise<string | null> {
    const result = await this.deps.api.result(bookingKey);
    if (generation !== this.generation) return null;
    runInAction(() => this.received(result));
    return this.imageViewerLink;
  }

  /** Goes where the image viewer answer says (EXPIRED: its redirect; PACS: the PACS portal; else the viewer). */
  private follow(answer: ImageViewerResponse): void {
    if (answer.imageViewerLinkStatus === 'EXPIRED') {
      this.followRedirect(answer.redirectUrl);
      return;
    }
    const pacsUrl = answer.preference === 'PACS' ? safeRedirectUrl(answer.pacsUrl) : null;
    const target = pacsUrl ?? safeRedirectUrl(answer.url);
    if (target === null) {
      this.imagesProblem = 'noUrl';
      return;
    }
    // A viewer inside the provider's frame is cramped: from /iframe it opens in a new top-level tab.
    if (this.embedded) this.deps.browser.openInNewTab(target);
    else this.deps.browser.assign(target);
  }

  /** An expired link's redirect: an internal path through the router (inside /iframe when embedded), else the page itself. */
  private followRedirect(redirectUrl: string | null): void {
    const internal = safeInternalPath(redirectUrl);
    const external = internal === null ? safeRedirectUrl(redirectUrl) : null;
    if (external !== null) {
      this.deps.browser.assign(external);
      return;
    }
    const target = internal ?? `${paths.deny()}?resultsExpired=true`;
    const navigator = this.deps.navigator();
    navigator.navigate(this.embedded && !isEmbeddedPath(target) ? paths.embedded(target) : target);
  }

  private get embedded(): boolean {
    return isEmbeddedPath(this.deps.navigator().currentUrl());
  }
}

/** The result page's store, built once per visit (RootStore.featureStore). */
export function resultStoreOf({ root, client, window, navigator }: FeatureStoreContext): ResultStore {
  return new ResultStore({
    api: createResultsApi(client),
    ensureSignedIn: (bookingKey, type) => root.patientAccess.ensureSignedIn(bookingKey, type),
    navigator,
    browser: {
      assign: (url) => window.location.assign(url),
      openInNewTab: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
    },
    now: () => Date.now(),
  });
}
