/**
 * The messages between the framed portal and the provider's embed script (resources/embed/embed.js,
 * docs/embedding.md). The portal posts only to the page that framed it, and only once the server
 * said that page's origin may embed it: never to '*'.
 */

export const HEIGHT_MESSAGE = 'radiology-portal:height';
export const VIEWPORT_MESSAGE = 'radiology-portal:viewport';
export const SCROLL_INTO_VIEW_MESSAGE = 'radiology-portal:scroll-into-view';

const STORAGE_KEY = 'portal.embedParentOrigin';

/** The value when it is an http(s) origin (scheme, host, port; nothing else), else null. */
export function asOrigin(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : null;
  } catch {
    return null;
  }
}

/**
 * The origin of the page around the frame: the embed script's `parentOrigin` query parameter
 * (kept for the frame's later pages, whose addresses no longer carry it), else what the browser
 * says about the parent (location.ancestorOrigins, Chromium and Safari). Null when not framed.
 */
export function claimedParentOrigin(win: Window): string | null {
  if (win.parent === win) return null;
  const fromQuery = asOrigin(new URLSearchParams(win.location.search).get('parentOrigin'));
  try {
    if (fromQuery) win.sessionStorage.setItem(STORAGE_KEY, fromQuery);
    const stored = asOrigin(win.sessionStorage.getItem(STORAGE_KEY));
    if (stored) return stored;
  } catch {
    // Storage blocked in a third-party frame: the query (first page) still answers.
    if (fromQuery) return fromQuery;
  }
  return asOrigin(win.location.ancestorOrigins?.[0] ?? null);
}

export interface Viewport {
  /** The first visible pixel row of the frame, in the frame's coordinates. */
  top: number;
  /** How many rows of the frame the visitor sees. */
  height: number;
}

/** A viewport message's content, or null for anything else. */
export function readViewport(data: unknown): Viewport | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as { type?: unknown; top?: unknown; height?: unknown };
  if (message.type !== VIEWPORT_MESSAGE) return null;
  const { top, height } = message;
  if (typeof top !== 'number' || typeof height !== 'number' || !Number.isFinite(top) || !Number.isFinite(height)) return null;
  return { top: Math.max(0, top), height: Math.max(0, height) };
}
