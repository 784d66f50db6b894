import { useEffect, useState, type ReactNode } from 'react';

/** The longest wait for a quiet moment once the delay has passed. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Renders its children `delayMs` after the page has loaded, at the browser's next quiet moment:
 * for page-wide extras (the chat launcher) whose code must not compete with the page's own on a
 * phone's first visit (docs/web.md#budgets).
 */
export function AfterPageLoad({ delayMs, children }: { delayMs: number; children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    let timer: number | undefined;
    const whenQuiet = (): void => {
      if (typeof window.requestIdleCallback === 'function') {
        idle = window.requestIdleCallback(() => setReady(true), { timeout: IDLE_TIMEOUT_MS });
      } else setReady(true);
    };
    const afterLoad = (): void => {
      timer = window.setTimeout(whenQuiet, delayMs);
    };
    if (document.readyState === 'complete') afterLoad();
    else window.addEventListener('load', afterLoad, { once: true });
    return () => {
      window.removeEventListener('load', afterLoad);
      if (timer !== undefined) window.clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [delayMs]);
  return ready ? children : null;
}
