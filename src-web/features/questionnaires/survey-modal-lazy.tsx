import { observer } from 'mobx-react-lite';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportError } from '../../platform/error-reporting';
import { MessageDialog } from '../../components/modal-dialog';
import type { QuestionnaireStore } from './questionnaire-store';
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
    <MessageDialog title={t('questionnaire.title')} closeText={t('action.close')} onClose={onClose}>
      <p>{t('questionnaire.loadError')}</p>
    </MessageDialog>
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

/** The survey modal of a questionnaire run: the store's current questionnaire, saved through the store. */
export const QuestionnaireRunModal = observer(function QuestionnaireRunModal({
  store,
  locale,
}: {
  store: QuestionnaireStore;
  locale: SurveyModalProps['locale'];
}) {
  const { t } = useTranslation();
  const current = store.current;
  if (!current) return null;
  return (
    <LazySurveyModal
      key={`${current.questionnaire.id}:${current.examSlug ?? ''}`}
      questionnaire={current.questionnaire}
      error={store.error}
      locale={locale}
      lookup={(query, source) => (source ? store.api.autocomplete(source, query) : Promise.resolve([]))}
      onSubmit={(result) => store.submit(result, t('message.error_answering_questionnaire'))}
      onClose={() => store.close()}
    />
  );
});
