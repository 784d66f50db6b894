import { makeAutoObservable, runInAction } from 'mobx';
import type { ImageViewerResponse } from '@contract/api/image-viewer';
import { ApiError } from '../../api/client';
import { isEmbeddedPath, paths } from '../../paths';
import { safeInternalPath, safeRedirectUrl } from '../../platform/safe-url';
import type { PortalNavigator } from '../../stores/session-store';
import { isLinkStale } from './image-link';
import { rememberImagesReturn } from './images-return';
import { isSignInNeeded } from '../../api/refusal';

/**
 * Why the images did not open: no viewer URL could be made
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
  /** Notes the way back to this place of the page before the tab leaves (images-return.ts). */
  rememberReturn?(label: string, back: string): void;
}

export interface ImageOpenerDeps {
  /** GET /api/image_viewer?input={link}. */
  imageViewer: (link: string) => Promise<ImageViewerResponse>;
  navigator: () => PortalNavigator;
  browser: BrowserWindow;
  /** Milliseconds now (the browser's clock), to know when the image link has gone stale. */
  now: () => number;
}

/** One result's signed image link as its page holds it. */
export interface ImageLinkSource {
  /** The link now, or null (no study). */
  link(): string | null;
  /** When (browser clock) that link arrived. */
  receivedAt(): number;
  /** Loads the result again for a new link; null when there is none any more or the page moved on. */
  reload(): Promise<string | null>;
  /** False once the page has moved on (another open, unmounted): nothing more happens then. */
  isCurrent(): boolean;
  /**
   * Optional: the page's own answer to a failed reload or viewer call (a shared page leaves for
   * /deny on 410). True when it handled the error, so no problem is shown.
   */
  handled?(error: unknown): boolean;
  /** A human label of the images (the exam and its date) for the viewer's heading; never a study UID. */
  label?(): string;
}

/**
 * Opening a result's images (docs/rules/results.md#image-viewer), shared by the
 * result page, the history list and the shared results page: a link that sat on the page longer
 * than it lives is replaced first; then GET /api/image_viewer says where to go. A link the server
 * calls EXPIRED although it was not fresh is replaced once more before its redirect is followed.
 */
export class ImageOpener {
  /** The images are being opened (the button waits). */
  opening = false;
  problem: ImagesProblem | null = null;

  private readonly deps: ImageOpenerDeps;
  /** The label of the images being opened. */
  private label: string | null = null;

  constructor(deps: ImageOpenerDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'label'>(this, { deps: false, label: false });
  }

  /** Forgets the last problem and any open in progress (a new load of the page). */
  reset(): void {
    this.opening = false;
    this.problem = null;
  }

  async open(source: ImageLinkSource): Promise<void> {
    let link = source.link();
    if (link === null || this.opening) return;
    this.opening = true;
    this.problem = null;
    this.label = source.label?.() ?? null;
    try {
      let fresh = false;
      if (isLinkStale(link, source.receivedAt(), this.deps.now())) {
        link = await source.reload();
        fresh = true;
      }
      if (link === null || !source.isCurrent()) return;
      let answer = await this.deps.imageViewer(link);
      if (answer.imageViewerLinkStatus === 'EXPIRED' && !fresh) {
        link = await source.reload();
        if (link === null || !source.isCurrent()) return;
        answer = await this.deps.imageViewer(link);
      }
      if (source.isCurrent()) runInAction(() => this.follow(answer));
    } catch (error) {
      runInAction(() => {
        if (!source.isCurrent() || source.handled?.(error) === true) return;
        // A 401 went to sign-in already (the client's rule).
        if (isSignInNeeded(error)) return;
        this.problem = error instanceof ApiError && error.status === 403 ? 'noAccess' : 'failed';
      });
    } finally {
      runInAction(() => {
        this.opening = false;
      });
    }
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
      this.problem = 'noUrl';
      return;
    }
    // A viewer inside the provider's frame is cramped: from /iframe it opens in a new top-level tab.
    if (this.embedded) {
      this.deps.browser.openInNewTab(target);
      return;
    }
    if (this.label !== null) this.deps.browser.rememberReturn?.(this.label, this.deps.navigator().currentUrl());
    this.deps.browser.assign(target);
  }

  /** An expired link's redirect: an internal path through the router (inside /iframe when embedded), else the page itself. */
  private followRedirect(redirectUrl: string | null): void {
    const internal = safeInternalPath(redirectUrl);
    const external = internal === null ? safeRedirectUrl(redirectUrl) : null;
    if (external !== null) {
      this.deps.browser.assign(external);
      return;
    }
    const target = internal ?? paths.resultsExpired();
    const navigator = this.deps.navigator();
    navigator.navigate(this.embedded ? paths.embedded(target) : target);
  }

  private get embedded(): boolean {
    return isEmbeddedPath(this.deps.navigator().currentUrl());
  }
}

/** The browser window as the image opener leaves through it. */
export function browserWindowOf(win: Window): BrowserWindow {
  return {
    assign: (url) => win.location.assign(url),
    openInNewTab: (url) => void win.open(url, '_blank', 'noopener,noreferrer'),
    rememberReturn: (label, back) => rememberImagesReturn(win, { label, back, scrollY: win.scrollY }),
  };
}
