import { useEffect } from 'react';
import { useStores } from '../stores/use-stores';

/**
 * Keeps each signed-in session (patient, staff) alive while its page is open and visible, when the
 * provider enables it (docs/rules/patient-access.md#keep-alive). The timer is a chunk of its own
 * (keep-alive-timer.ts), loaded once someone is signed in: the booking home carries none of it.
 */

export function useKeepAlive(): void {
  const root = useStores();
  const on = root.config.app.keepAliveEnabled && (root.session.isAuthenticated || root.staff.user !== null);
  useEffect(() => {
    if (!on) return;
    let stop: (() => void) | undefined;
    let live = true;
    void import('./keep-alive-timer').then((timer) => live && (stop = timer.keepAlive(root)));
    return () => {
      live = false;
      stop?.();
    };
  }, [root, on]);
}
