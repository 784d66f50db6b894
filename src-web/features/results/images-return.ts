import { safeInternalPath } from '../../platform/safe-url';

/**
 * The way back from the images to the same place on the result page (docs/rules/results.md#way-back-from-the-images): before the tab
 * leaves for the viewer, the page notes in sessionStorage (this tab only, never a URL or a server
 * log) where it was, which exam the images are of, and its scroll position. The demo viewer shows
 * that label and a "Back to your results" link; the result page, opened again, scrolls back.
 */

const KEY = 'pp-images-return';

export interface ImagesReturn {
  /** The result page's path (and query) to go back to. */
  back: string;
  /** A human label of the images: the exam and its date, never a study UID. */
  label: string;
  /** The page's scroll position when the images were opened. */
  scrollY: number;
}

export function rememberImagesReturn(win: Window, value: ImagesReturn): void {
  try {
    win.sessionStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage refused (a private mode, a blocked frame): the images still open, only without the way back.
  }
}

/** What the page noted, when it is whole and its path is one of this portal's. */
export function readImagesReturn(win: Window): ImagesReturn | null {
  try {
    const parsed: unknown = JSON.parse(win.sessionStorage.getItem(KEY) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { back, label, scrollY } = parsed as Record<string, unknown>;
    const path = typeof back === 'string' ? safeInternalPath(back) : null;
    if (path === null || typeof label !== 'string' || typeof scrollY !== 'number' || !Number.isFinite(scrollY)) return null;
    return { back: path, label: label.slice(0, 200), scrollY: Math.max(0, scrollY) };
  } catch {
    return null;
  }
}

/**
 * On the result page: when the images were opened from this very path, scrolls back to where the
 * patient was (once the page is tall enough: the history arrives a moment later) and forgets it.
 */
export function restoreImagesReturn(win: Window, path: string): void {
  const noted = readImagesReturn(win);
  if (noted === null || noted.back !== path) return;
  try {
    win.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
  let tries = 0;
  const attempt = () => {
    tries += 1;
    const room = win.document.documentElement.scrollHeight - win.innerHeight;
    if (room >= noted.scrollY || tries >= 30) {
      win.scrollTo({ top: noted.scrollY, behavior: 'instant' });
      return;
    }
    win.setTimeout(attempt, 100);
  };
  attempt();
}
