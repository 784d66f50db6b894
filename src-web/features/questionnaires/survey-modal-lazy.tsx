import { observer } from 'mobx-react-lite';
import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { reportError } from '../../platform/error-reporting';
import { MessageDialog } from '../../components/modal-dialog';
import type { QuestionnaireStore } from './questionnaire-store';
import type { SurveyModalProps } from './survey-modal';
import { SurveyOutcomeNotice, useOutcomeWords, type NextStep } from './survey-outcome';

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

/**
 * The survey modal of a questionnaire run: the store's current questionnaire, saved through the
 * store. After Complete the outcome is said in words: at the top of the next questionnaire, or
 * (with `next`) in a status message naming the next action once the run is over, rendered into
 * `outcomeSlot` (the page's place for it, in its flow) when given, while `outcomeShown`. The
 * status region stays mounted while a questionnaire is open, so the words are announced when
 * they appear.
 */
export const QuestionnaireRunModal = observer(function QuestionnaireRunModal({
  store,
  locale,
  next = 'none',
  outcomeSlot = null,
  outcomeShown = true,
  forPatient = false,
}: {
  store: QuestionnaireStore;
  locale: SurveyModalProps['locale'];
  next?: NextStep;
  outcomeSlot?: HTMLElement | null;
  outcomeShown?: boolean;
  /** Staff answer for the patient (a staff booking). */
  forPatient?: boolean;
}) {
  const { t } = useTranslation();
  const words = useOutcomeWords();
  const [dismissed, setDismissed] = useState<object | null>(null);
  const current = store.current;
  const outcome = store.lastOutcome;
  // A denial has its own dialog; a dismissed notice stays away until the next outcome.
  const shown =
    outcomeShown && !current && outcome && outcome.kind !== 'denied' && outcome !== dismissed && store.state === 'done' ? outcome : null;
  const notice = next === 'none' ? null : <SurveyOutcomeNotice outcome={shown} next={next} onDismiss={() => setDismissed(outcome)} />;
  return (
    <>
      {notice && outcomeSlot ? createPortal(notice, outcomeSlot) : notice}
      {current && (
        <LazySurveyModal
          key={`${current.questionnaire.id}:${current.examSlug ?? ''}`}
          questionnaire={current.questionnaire}
          error={store.error}
          locale={locale}
          previousOutcome={outcome ? words(outcome) : null}
          forPatient={forPatient}
          lookup={(query, source) => (source ? store.api.autocomplete(source, query) : Promise.resolve([]))}
          onSubmit={(result) => store.submit(result, t('message.error_answering_questionnaire'))}
          onClose={() => store.close()}
        />
      )}
    </>
  );
});
