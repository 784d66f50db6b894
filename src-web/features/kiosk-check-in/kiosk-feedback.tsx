import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useQuestionnaireTexts } from '../../i18n/questionnaire-texts';
import { useStores } from '../../stores/use-stores';
import { preloadSurveyModal, QuestionnaireRunModal, questionnaireStoreOf } from '../questionnaires/public';
import { KioskCard } from './kiosk-card';
import type { KioskCheckInStore } from './kiosk-check-in-store';

/**
 * The feedback step (giveFeedback; docs/rules/kiosk.md#kiosk-check-in-in-the-web-app): the booking's FEEDBACK questionnaire before
 * confirming, through the same run as the questionnaires page (answers saved against the
 * appointment). Optional: Skip, the survey's close button, or an empty list all go on to confirm.
 */
export const FeedbackStep = observer(function FeedbackStep({ store }: { store: KioskCheckInStore }) {
  const root = useStores();
  const { t } = useTranslation();
  const run = root.featureStore(questionnaireStoreOf);
  const textsReady = useQuestionnaireTexts(root.i18n.i18n, root.i18n.locale);
  const bookingKey = store.bookingKey;

  useEffect(() => {
    if (bookingKey === null) return;
    preloadSurveyModal();
    void run.load('APPOINTMENT', bookingKey, ['FEEDBACK']);
    return () => run.reset();
  }, [run, bookingKey]);

  // Answered, closed, nothing to ask, or not loadable: check-in goes on either way.
  useEffect(() => {
    if (run.state === 'done' || run.state === 'error') void store.feedbackDone();
  }, [run.state, store]);

  return (
    <KioskCard heading={t('kiosk.feedback.heading')} intro={t('kiosk.feedback.intro')}>
      <Button variant="secondary" onClick={() => void store.feedbackDone()}>
        {t('kiosk.feedback.skip')}
      </Button>
      {textsReady && <QuestionnaireRunModal store={run} locale={root.i18n.locale} />}
    </KioskCard>
  );
});
