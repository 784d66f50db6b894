import { makeAutoObservable } from 'mobx';
import { detectDevice, shouldZoom, type Device } from '@contract/shell/device';
import { detectKioskMode } from '../platform/kiosk';
import { BANNER_CLOSED_COOKIE, bannerClosedIn } from '@contract/shell/banner-cookie';

const BANNER_CLOSED_KEY = 'portal.bannerClosed';

/** Layout state of the shell: device, zoom, loading overlay, banner. */
export class UiStore {
  viewportWidth: number;
  viewportHeight: number;
  /** Kiosk mode: ?kioskMode=true or the kiosk app's bridge; remembered for the session. */
  readonly kiosk: boolean;
  bannerClosed: boolean;
  /** Explicit loading work (navigation loading is read from the router). */
  loadingCount = 0;
  /** The proof-of-work check is running (docs/rules/security.md#proof-of-work-check). */
  checkingRequest = false;
  /**
   * How often "Cookie settings" was chosen in this page (docs/rules/analytics.md#consent): the consent
   * banner opens again on each new request, also one made before its chunk had loaded.
   */
  cookieSettingsRequests = 0;
  /** The consent banner applies to this page, so "Cookie settings" is offered (set by the consent chunk). */
  cookieSettingsOffered = false;

  private readonly win: Window;
  private readonly clock: () => Date;

  constructor(win: Window, clock: () => Date) {
    this.win = win;
    this.clock = clock;
    this.viewportWidth = win.innerWidth;
    this.viewportHeight = win.innerHeight;
    this.kiosk = detectKioskMode(win);
    this.bannerClosed = readSession(win, BANNER_CLOSED_KEY) === 'true' || bannerClosedIn(win.document.cookie);
    makeAutoObservable<this, 'win' | 'clock'>(this, { win: false, clock: false, kiosk: false });
  }

  get device(): Device {
    return detectDevice({
      userAgent: this.win.navigator.userAgent,
      width: this.viewportWidth,
      maxTouchPoints: this.win.navigator.maxTouchPoints ?? 0,
      kiosk: this.kiosk,
    });
  }

  get isMobile(): boolean {
    return this.device === 'mobile';
  }

  /** Heights up to 768 px are zoomed to 75%, except on phones (see shouldZoom). */
  get zoomed(): boolean {
    return shouldZoom(this.device, this.viewportHeight);
  }

  get loading(): boolean {
    return this.loadingCount > 0;
  }

  get currentYear(): number {
    return this.clock().getFullYear();
  }

  setViewport(width: number, height: number): void {
    this.viewportWidth = width;
    this.viewportHeight = height;
  }

  startLoading(): void {
    this.loadingCount += 1;
  }

  stopLoading(): void {
    this.loadingCount = Math.max(0, this.loadingCount - 1);
  }

  setCheckingRequest(active: boolean): void {
    this.checkingRequest = active;
  }

  openCookieSettings(): void {
    this.cookieSettingsRequests += 1;
  }

  offerCookieSettings(offered: boolean): void {
    this.cookieSettingsOffered = offered;
  }

  closeBanner(): void {
    this.bannerClosed = true;
    writeSession(this.win, BANNER_CLOSED_KEY, 'true');
    // The server's first paint of the next page leaves the banner out too (no expiry: this session).
    const secure = this.win.location.protocol === 'https:' ? '; Secure' : '';
    this.win.document.cookie = `${BANNER_CLOSED_COOKIE}=1; Path=/; SameSite=Lax${secure}`;
  }

  /** Follows window resizes (one update per frame); returns the function that stops it. */
  watchViewport(): () => void {
    let frame = 0;
    const onResize = () => {
      if (frame) return;
      frame = this.win.requestAnimationFrame(() => {
        frame = 0;
        this.setViewport(this.win.innerWidth, this.win.innerHeight);
      });
    };
    this.win.addEventListener('resize', onResize);
    return () => {
      this.win.removeEventListener('resize', onResize);
      if (frame) this.win.cancelAnimationFrame(frame);
    };
  }
}

// Storage can throw (privacy modes, sandboxed frames); the banner then simply shows again.
function readSession(win: Window, key: string): string | null {
  try {
    return win.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeSession(win: Window, key: string, value: string): void {
  try {
    win.sessionStorage.setItem(key, value);
  } catch {
    // see readSession
  }
}
