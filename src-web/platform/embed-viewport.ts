import { readViewport, type Viewport } from './embed-messages';

/** Dialogs need room: a visible strip smaller than this is widened (downwards, within the frame). */
const MIN_DIALOG_AREA = 320;

/**
 * The part of the frame where dialogs go, as CSS custom properties on the root element
 * (embedded.css places dialogs, antd modals and the loading overlay between them).
 */
export function viewportProperties(viewport: Viewport, frameHeight: number): Record<string, string> {
  const height = Math.min(frameHeight, Math.max(viewport.height, MIN_DIALOG_AREA));
  const top = Math.max(0, Math.min(viewport.top, frameHeight - height));
  const bottom = Math.max(0, frameHeight - top - height);
  return { '--pp-embed-top': `${top}px`, '--pp-embed-bottom': `${bottom}px`, '--pp-embed-height': `${height}px` };
}

/**
 * Follows the viewport messages of the page around the frame (from `parentOrigin` only) and keeps
 * the root element's properties current. Returns the function that stops it.
 */
export function followParentViewport(win: Window, parentOrigin: string, onFirst: () => void): () => void {
  let seen = false;
  const root = win.document.documentElement;
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== parentOrigin || event.source !== win.parent) return;
    const viewport = readViewport(event.data);
    if (!viewport) return;
    for (const [name, value] of Object.entries(viewportProperties(viewport, win.innerHeight))) root.style.setProperty(name, value);
    if (!seen) {
      seen = true;
      onFirst();
    }
  };
  win.addEventListener('message', onMessage);
  return () => {
    win.removeEventListener('message', onMessage);
    for (const name of ['--pp-embed-top', '--pp-embed-bottom', '--pp-embed-height']) root.style.removeProperty(name);
  };
}
