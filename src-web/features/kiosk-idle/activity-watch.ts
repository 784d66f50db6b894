/** What counts as someone at the kiosk (docs/rules/kiosk.md#inactivity): pointer, key, scroll, touch, wheel; on the document. */
export const DOCUMENT_ACTIVITY_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/** Another tab of the kiosk changed storage. */
export const WINDOW_ACTIVITY_EVENTS = ['storage'] as const;

/** The inactivity dialog's class; its own buttons answer the events inside it. */
export const IDLE_DIALOG_CLASS = 'pp-kiosk-idle';

/**
 * Listens for activity and calls `onActivity` (the idle timer throttles). Capture phase, so a
 * page that stops an event's propagation still counts, and scrolling inside any element counts.
 * Events inside the inactivity dialog are left to its buttons: a tap on Home must reach Home
 * rather than dismiss the dialog; a tap on the backdrop around it is activity.
 * Returns the function that stops listening.
 */
export function watchActivity(win: Window, onActivity: () => void): () => void {
  const listener = (event: Event) => {
    if (!isInsideIdleDialog(event)) onActivity();
  };
  const options: AddEventListenerOptions = { capture: true, passive: true };
  for (const type of DOCUMENT_ACTIVITY_EVENTS) win.document.addEventListener(type, listener, options);
  for (const type of WINDOW_ACTIVITY_EVENTS) win.addEventListener(type, listener, options);
  return () => {
    for (const type of DOCUMENT_ACTIVITY_EVENTS) win.document.removeEventListener(type, listener, options);
    for (const type of WINDOW_ACTIVITY_EVENTS) win.removeEventListener(type, listener, options);
  };
}

interface ElementLike {
  closest(selector: string): ElementLike | null;
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
}

function isElement(target: EventTarget | null): target is EventTarget & ElementLike {
  return target !== null && typeof (target as Partial<ElementLike>).closest === 'function';
}

/** True for events on the dialog's content; the dialog element itself is also hit on its backdrop, told apart by position. */
export function isInsideIdleDialog(event: Event): boolean {
  const target = event.target;
  if (!isElement(target)) return false;
  const dialog = target.closest(`.${IDLE_DIALOG_CLASS}`);
  if (dialog === null) return false;
  if (dialog !== target) return true;
  if (!('clientX' in event) || typeof event.clientX !== 'number' || !('clientY' in event) || typeof event.clientY !== 'number') return true;
  const box = dialog.getBoundingClientRect();
  return event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
}
