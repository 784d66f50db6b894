import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import { DEFAULT_REPOSITORY_SOURCE, type ImageViewerResponse } from '@contract/api/image-viewer';
import { IMAGE_GENERATION_POLL_MS, IMAGE_GENERATION_WAIT_MS, type ReferrerReport } from '@contract/api/quick-report';
import { ApiError } from '../../api/client';
import { createQuickReportApi, type QuickReportApi } from '../../api/quick-report-api';
import { hrefOf, paths, ROUTE } from '../../paths';
import { safeInternalPath, safeRedirectUrl } from '../../platform/safe-url';
import type { FeatureStoreContext } from '../../stores/root-store';
import { FROM_LIST, FROM_PARAM } from '../referrer-reports/public';
import type { PortalNavigator } from '../../stores/session-store';
import { LatestRun } from '../../platform/load-state';

/**
 * Where the page stands: loading; ready (the report, and the images in one of their states);
 * error (no link, no access, or the call failed); leaving (an expired link to its page, a PACS
 * archive to its portal).
 */
/** The query part that asks a portal viewer for its framed layout (demo-viewer-page.tsx). */
export const FRAME_FIT = 'fit=frame';

export type QuickReportState = 'idle' | 'loading' | 'ready' | 'error' | 'leaving';
export type QuickReportProblem = 'noCredentials' | 'noAccess' | 'failed';
/** The spec's image states: the viewer, not available yet (being generated), the generation error. */
export type QuickReportImages = 'viewer' | 'notAvailable' | 'generationError';

export interface QuickReportStoreDeps {
  api: QuickReportApi;
  navigator: () => PortalNavigator;
  /** Leaves the portal for another site (the PACS portal). */
  assign: (url: string) => void;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * The referrer's quick report, /referrer/quick-report?imsec=…&repositorySource=…
 * (docs/rules/referrers.md#quick-report): the image viewer link decides first (EXPIRED: its
 * redirect; a PACS-preference archive: its portal), then the report shows with the viewer in a
 * frame; a study without images yet is asked for and waited on, polling every 2 s for 2 minutes.
 */
export class QuickReportStore {
  state: QuickReportState = 'idle';
  problem: QuickReportProblem | null = null;
  report: ReferrerReport | null = null;
  images: QuickReportImages = 'notAvailable';
  /** The viewer's address as the frame loads it (an internal viewer under /iframe, without the portal around it). */
  frameUrl: string | null = null;
  /** The viewer's own address, for opening it in a window of its own. */
  viewerUrl: string | null = null;
  imsec: string | null = null;
  repositorySource = DEFAULT_REPOSITORY_SOURCE;
  /** Opened from the doctor's report list (?from=list): the page leads back to it, and so does the feedback page. */
  fromList = false;

  private readonly deps: QuickReportStoreDeps;
  /** Restarted by open() and dispose() so an answer or a poll for an earlier open stops. */
  private readonly runs = new LatestRun();

  constructor(deps: QuickReportStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'runs'>(this, { deps: false, runs: false, report: observableRef });
  }

  async open(imsec: string | null, repositorySource: string | null, fromList = false): Promise<void> {
    const isCurrent = this.runs.start();
    this.imsec = imsec;
    this.fromList = fromList;
    this.repositorySource = repositorySource ?? DEFAULT_REPOSITORY_SOURCE;
    this.report = null;
    this.frameUrl = null;
    this.viewerUrl = null;
    this.problem = null;
    if (imsec === null || imsec === '') {
      this.fail('noCredentials');
      return;
    }
    this.state = 'loading';
    try {
      const answer = await this.deps.api.imageViewer(imsec, this.repositorySource);
      if (!isCurrent() || this.left(answer)) return;
      const report = await this.deps.api.report(imsec);
      if (!isCurrent()) return;
      runInAction(() => {
        this.report = report;
        this.state = 'ready';
      });
      if (answer.url !== null) this.showViewer(answer.url);
      else if (report.images === 'FAILED') this.setImages('generationError');
      else await this.generate(isCurrent);
    } catch (error) {
      if (isCurrent()) this.failWith(error);
    }
  }

  /** Asks for the images again after a generation error. */
  async retryImages(): Promise<void> {
    if (this.state === 'ready') await this.generate(this.runs.current());
  }

  async retry(): Promise<void> {
    await this.open(this.imsec, this.repositorySource, this.fromList);
  }

  dispose(): void {
    this.runs.cancel();
  }

  /** The report PDF's link: inline (view) or as an attachment (download). */
  pdfUrl(download: boolean): string | null {
    return this.imsec === null ? null : this.deps.api.pdfUrl(this.imsec, download);
  }

  /**
   * The feedback page for this report (shown when the provider asks referrers for feedback). It
   * says where the doctor came from (`return=report`, the archive, and `from=list`), so the
   * feedback page brings them back to this report afterwards.
   */
  get feedbackPath(): string | null {
    if (this.imsec === null) return null;
    const query = new URLSearchParams({ imsec: this.imsec, repositorySource: this.repositorySource, return: 'report' });
    if (this.fromList) query.set(FROM_PARAM, FROM_LIST);
    const path = `${hrefOf(ROUTE.referrerReportFeedback)}?${query.toString()}`;
    return paths.inLayoutOf(this.deps.navigator().currentUrl(), path);
  }

  private async generate(isCurrent: () => boolean): Promise<void> {
    const imsec = this.imsec;
    const report = this.report;
    if (imsec === null || report === null) return;
    this.setImages('notAvailable');
    try {
      let images = await this.deps.api.generate({
        imsec,
        accessionNumber: report.accessionNumber,
        repositorySource: this.repositorySource,
      });
      const deadline = this.deps.now() + IMAGE_GENERATION_WAIT_MS;
      while (isCurrent()) {
        if (images === 'FAILED' || this.deps.now() >= deadline) {
          this.setImages('generationError');
          return;
        }
        await this.deps.sleep(IMAGE_GENERATION_POLL_MS);
        if (!isCurrent()) return;
        const answer = await this.deps.api.imageViewer(imsec, this.repositorySource);
        if (!isCurrent() || this.left(answer)) return;
        if (answer.url !== null) {
          this.showViewer(answer.url);
          return;
        }
        images = answer.images ?? 'GENERATING';
      }
    } catch (error) {
      if (!isCurrent()) return;
      if (error instanceof ApiError && (error.status === 403 || error.code === 'image_link_expired')) this.failWith(error);
      else this.setImages('generationError');
    }
  }

  /** Follows an EXPIRED link's redirect or a PACS archive's portal; true when the page leaves. */
  private left(answer: ImageViewerResponse): boolean {
    if (answer.imageViewerLinkStatus === 'EXPIRED') {
      this.leave(answer.redirectUrl ?? paths.resultsExpired());
      return true;
    }
    const pacsUrl = answer.preference === 'PACS' ? safeRedirectUrl(answer.pacsUrl) : null;
    if (pacsUrl === null) return false;
    this.state = 'leaving';
    this.deps.assign(pacsUrl);
    return true;
  }

  private leave(redirectUrl: string): void {
    this.state = 'leaving';
    const internal = safeInternalPath(redirectUrl);
    if (internal === null) {
      const external = safeRedirectUrl(redirectUrl);
      if (external !== null) this.deps.assign(external);
      return;
    }
    const navigator = this.deps.navigator();
    navigator.navigate(paths.inLayoutOf(navigator.currentUrl(), internal));
  }

  private showViewer(url: string): void {
    const safe = safeRedirectUrl(url);
    if (safe === null) {
      this.setImages('generationError');
      return;
    }
    // The built-in viewer is a portal page: framed under /iframe it comes without the header and footer.
    const internal = safeInternalPath(safe);
    runInAction(() => {
      this.viewerUrl = safe;
      // `fit=frame`: the viewer alone, fitted to the frame (no page title or thumbnails repeated inside it).
      this.frameUrl = internal !== null ? paths.embedded(`${internal}${internal.includes('?') ? '&' : '?'}${FRAME_FIT}`) : safe;
      this.images = 'viewer';
    });
  }

  private setImages(images: QuickReportImages): void {
    this.images = images;
  }

  private fail(problem: QuickReportProblem): void {
    this.state = 'error';
    this.problem = problem;
  }

  private failWith(error: unknown): void {
    if (error instanceof ApiError && error.code === 'image_link_expired') {
      this.leave(paths.resultsExpired());
      return;
    }
    this.fail(error instanceof ApiError && (error.status === 403 || error.status === 400) ? 'noAccess' : 'failed');
  }
}

export function quickReportStoreOf({ client, window, navigator }: FeatureStoreContext): QuickReportStore {
  return new QuickReportStore({
    api: createQuickReportApi(client),
    navigator,
    assign: (url) => window.location.assign(url),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)),
  });
}
