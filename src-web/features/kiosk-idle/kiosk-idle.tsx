import { Component, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { reportError } from '../../platform/error-reporting';
import type { RootStore } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { endKioskSession } from './end-kiosk-session';

/** Once per page: every way of failing ends the session the same way. */
let failedClosed = false;

/** When idle watching cannot run, the patient's session ends at once (fail closed). */
function failClosed(root: RootStore, error: unknown): void {
  console.error('[kiosk-idle] idle watching cannot run; ending the session', error);
  reportError(error);
  if (failedClosed) return;
  failedClosed = true;
  void endKioskSession({ win: window, logout: () => root.api.patientAccess.logout() });
}

interface BoundaryProps {
  root: RootStore;
  children: ReactNode;
}

/** A render failure of the idle watch or its dialog ends the session instead of leaving it open. */
class FailClosedBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    failClosed(this.props.root, error);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The kiosk idle cycle, mounted once by the app in kiosk mode (docs/rules/kiosk.md#inactivity).
 * Its code is a chunk of its own, so pages outside kiosk mode never download it; this small part
 * stays in the entry chunk because it must end the session when that chunk cannot load.
 */
export function KioskIdle() {
  const root = useStores();
  const [Watch, setWatch] = useState<ComponentType | null>(null);

  useEffect(() => {
    let live = true;
    import('./kiosk-idle-watch').then(
      (module) => live && setWatch(() => module.KioskIdleWatch),
      (error: unknown) => failClosed(root, error),
    );
    return () => {
      live = false;
    };
  }, [root]);

  return Watch === null ? null : (
    <FailClosedBoundary root={root}>
      <Watch />
    </FailClosedBoundary>
  );
}
