import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { PatientResult } from '@contract/api/results';
import { createResultsApi, type ResultsApi } from '../../api/results-api';
import { Loader, type LoadState } from '../../platform/load-state';
import { loadSignedInSummary } from '../../platform/signed-in-summary';
import type { FeatureStoreContext } from '../../stores/root-store';
import type { PortalNavigator } from '../../stores/session-store';
import { browserWindowOf, ImageOpener, type BrowserWindow, type ImagesProblem } from './image-opener';
import { patientAccessStoreOf } from '../patient-access/public';

export type { BrowserWindow, ImagesProblem } from './image-opener';

/** The sign-in types that open a result (src-contract/api/patient-access.ts RESULT_SIGN_IN_TYPES). */
export type ResultSignInType = 'APPOINTMENT_RESULTS' | 'PATIENT_PORTAL';

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
  readonly loader = new Loader();
  /** Opening the released report's images. */
  readonly images: ImageOpener;

  private readonly deps: ResultStoreDeps;
  /** When (browser clock) the current result, and so its image link, arrived. */
  private receivedAt = 0;

  constructor(deps: ResultStoreDeps) {
    this.deps = deps;
    this.images = new ImageOpener({ imageViewer: (link) => deps.api.imageViewer(link), ...deps });
    makeAutoObservable<this, 'deps' | 'receivedAt'>(this, {
      deps: false,
      images: false,
      loader: false,
      receivedAt: false,
      result: observableRef,
    });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** Opens the page for a booking: the authenticated check for the type (sign-in when needed), then the result. */
  async open(bookingKey: string, type: ResultSignInType): Promise<void> {
    if (this.bookingKey !== bookingKey || this.type !== type) this.result = null;
    this.bookingKey = bookingKey;
    this.type = type;
    this.images.reset();
    await loadSignedInSummary(
      this.loader,
      { signIn: () => this.deps.ensureSignedIn(bookingKey, type), summary: () => this.deps.api.result(bookingKey) },
      { loaded: (result) => this.received(result) },
    );
  }

  /** Tries the load again after a failure. */
  async retry(): Promise<void> {
    if (this.bookingKey !== null) await this.open(this.bookingKey, this.type);
  }

  /** Forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.loader.dispose();
    this.images.reset();
  }

  /** The report PDF's link: inline (view) or as an attachment (download). */
  reportPdfUrl(download: boolean): string | null {
    return this.bookingKey === null ? null : this.deps.api.reportPdfUrl(this.bookingKey, download);
  }

  /** The signed image link of a released report with a study, else null (no View images). */
  get imageViewerLink(): string | null {
    return this.result?.state === 'RELEASED' ? this.result.imageViewerLink : null;
  }

  /** The images are being opened (the button waits). */
  get openingImages(): boolean {
    return this.images.opening;
  }

  get imagesProblem(): ImagesProblem | null {
    return this.images.problem;
  }

  /** Opens the images (image-opener.ts): a stale link is replaced by loading the result again first. */
  async openImages(label?: string): Promise<void> {
    const bookingKey = this.bookingKey;
    if (bookingKey === null) return;
    const isCurrent = this.loader.current();
    await this.images.open({
      link: () => this.imageViewerLink,
      receivedAt: () => this.receivedAt,
      reload: () => this.reloadLink(bookingKey, isCurrent),
      isCurrent,
      label: label === undefined ? undefined : () => label,
    });
  }

  private received(result: PatientResult): void {
    this.result = result;
    this.receivedAt = this.deps.now();
  }

  /** The result again, for a new image link; null when this open is over or the result has no link any more. */
  private async reloadLink(bookingKey: string, isCurrent: () => boolean): Promise<string | null> {
    const result = await this.deps.api.result(bookingKey);
    if (!isCurrent()) return null;
    runInAction(() => this.received(result));
    return this.imageViewerLink;
  }
}

/** The result page's store, built once per visit (RootStore.featureStore). */
export function resultStoreOf({ root, client, window, navigator }: FeatureStoreContext): ResultStore {
  return new ResultStore({
    api: createResultsApi(client),
    ensureSignedIn: (bookingKey, type) => root.featureStore(patientAccessStoreOf).ensureSignedIn(bookingKey, type),
    navigator,
    browser: browserWindowOf(window),
    now: () => Date.now(),
  });
}
