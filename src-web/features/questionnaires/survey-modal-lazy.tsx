import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportError } from '../../platform/error-reporting';
import { ModalDialog } from '../../shell/modal-dialog';
import type { SurveyModalProps } from './survey-modal';

// SurveyJS (survey-core, survey-react-ui and their CSS) is a chunk of its own, downloaded only
// when a questionnaire actually opens: never on the booking home's first screen.
const SurveyModalChunk = lazy(() => import('./survey-modal'));

/** Starts downloading the survey chunk before it is needed (e.g. once questionnaires are known to be pending). */
export function preloadSurveyModal(): void {
  void import('./survey-modal').catch(() => undefined);
}

/** A questionnaire that cannot be shown (its chunk did not download, or its JSON is broken). */
function SurveyFailed({ onClose }: { onClose?: () => void }) {
  const { t } = useTranslation();
  return (
    <ModalDialog
      role="alertdialog"
      title={t('questionnaire.title')}
      onDismiss={onClose}
      actions={
        <button type="button" className="pp-button" onClick={onClose}>
          {t('action.close')}
        </button>
      }
    >
      <p>{t('questionnaire.loadError')}</p>
    </ModalDialog>
  );
}

class SurveyBoundary extends Component<{ children: ReactNode; onClose?: () => void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    reportError(error);
  }

  override render() {
    return this.state.failed ? <SurveyFailed onClose={this.props.onClose} /> : this.props.children;
  }
}

/** The survey modal, loaded on first use; a failure to show it says so instead of breaking the page. */
export function LazySurveyModal(props: SurveyModalProps) {
  const { t } = useTranslation();
  return (
    <SurveyBoundary onClose={props.onClose}>
      <Suspense
      fallback={
        <p role="status" className="pp-muted">
          {t('message.loading')}
        </p>
      }
    >
        <SurveyModalChunk {...props} />
      </Suspense>
    </SurveyBoundary>
  );
}
