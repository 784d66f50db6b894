import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import { Loader } from '../../platform/load-state';
import type { HistoryAppointment } from '@contract/api/results';
import { createResultsApi, type ResultsApi } from '../../api/results-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { browserWindowOf, ImageOpener, type ImageOpenerDeps } from './image-opener';
import { isSignInNeeded } from '../../api/refusal';

export interface HistoryStoreDeps extends Omit<ImageOpenerDeps, 'imageViewer'> {
  api: ResultsApi;
}

/** One earlier appointment of the list, with its own image opener. */
export class HistoryItem {
  appointment: HistoryAppointment;
  receivedAt: number;
  readonly images: ImageOpener;

  constructor(appointment: HistoryAppointment, receivedAt: number, images: ImageOpener) {
    this.appointment = appointment;
    this.receivedAt = receivedAt;
    this.images = images;
    makeAutoObservable(this, { appointment: observableRef, images: false });
  }
}

/**
 * "Your earlier results" below the result (docs/rules/results.md#earlier-results-web): the results
 * sign-in already proved who the patient is, so the list loads with the page, nothing asked again
 * (one sign-in per visit, docs/rules/results.md#history); the server lists only the same person's reports.
 */
export class HistoryStore {
  bookingKey: string | null = null;
  /** The earlier appointments, newest first as the server sends them; null before they arrived. */
  items: HistoryItem[] | null = null;
  readonly loader = new Loader();

  private readonly deps: HistoryStoreDeps;

  constructor(deps: HistoryStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps'>(this, { deps: false, loader: false, items: observableRef });
  }

  get loading(): boolean {
    return this.loader.state === 'loading';
  }

  get failed(): boolean {
    return this.loader.state === 'error';
  }

  /** Loads the history of the signed-in booking's patient. */
  async start(bookingKey: string): Promise<void> {
    if (this.bookingKey !== bookingKey) this.items = null;
    this.bookingKey = bookingKey;
    await this.loader.run(() => this.deps.api.history(bookingKey), {
      loaded: (answer) => {
        this.items = answer.historyAppointments.map((appointment) => new HistoryItem(appointment, this.deps.now(), this.newOpener()));
      },
      // A 401 went to sign-in already (the client's rule): no load error on the way.
      failed: (error) => (isSignInNeeded(error) ? 'idle' : 'error'),
    });
  }

  /** Tries the load again after a failure. */
  async retry(): Promise<void> {
    if (this.bookingKey !== null) await this.start(this.bookingKey);
  }

  /** Forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.loader.dispose();
    this.loader.set('idle');
  }

  /** A history report's PDF link (inline or download). */
  pdfUrl(item: HistoryItem, download: boolean): string | undefined {
    return this.bookingKey === null ? undefined : this.deps.api.historyPdfUrl(this.bookingKey, item.appointment.resultId, download);
  }

  /** Opens an earlier report's images; a stale link is renewed by loading the history again. */
  async openImages(item: HistoryItem, label?: string): Promise<void> {
    const isCurrent = this.loader.current();
    await item.images.open({
      link: () => item.appointment.imageViewerLink,
      receivedAt: () => item.receivedAt,
      reload: () => this.reloadLink(item, isCurrent),
      isCurrent,
      label: label === undefined ? undefined : () => label,
    });
  }

  private async reloadLink(item: HistoryItem, isCurrent: () => boolean): Promise<string | null> {
    const bookingKey = this.bookingKey;
    if (bookingKey === null) return null;
    const answer = await this.deps.api.history(bookingKey);
    if (!isCurrent()) return null;
    const again = answer.historyAppointments.find((appointment) => appointment.resultId === item.appointment.resultId);
    if (again === undefined) return null;
    runInAction(() => {
      item.appointment = again;
      item.receivedAt = this.deps.now();
    });
    return again.imageViewerLink;
  }

  private newOpener(): ImageOpener {
    return new ImageOpener({ ...this.deps, imageViewer: (link) => this.deps.api.imageViewer(link) });
  }
}

/** The history section's store, built once per visit (RootStore.featureStore). */
export function historyStoreOf({ client, window, navigator }: FeatureStoreContext): HistoryStore {
  return new HistoryStore({
    api: createResultsApi(client),
    navigator,
    browser: browserWindowOf(window),
    now: () => Date.now(),
  });
}
