import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportError } from '../platform/error-reporting';
import { AppErrorPage } from './app-error-page';

function AppErrorFallback() {
  const { t } = useTranslation();
  return <AppErrorPage text={t('error.text')} />;
}

interface ErrorBoundaryState {
  failed: boolean;
}

/** Last line of defence around the providers and the router (routes have their own boundaries). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[app] render failed', error, info.componentStack);
    reportError(error);
  }

  override render(): ReactNode {
    return this.state.failed ? <AppErrorFallback /> : this.props.children;
  }
}
