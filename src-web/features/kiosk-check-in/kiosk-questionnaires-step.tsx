import { observer } from 'mobx-react-lite';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useQuestionnaireTexts } from '../../i18n/questionnaire-texts';
import { useStores } from '../../stores/use-stores';
import { preloadSurveyModal, QuestionnaireRunModal, questionnaireStoreOf } from '../questionnaires/public';
import type { KioskCheckInStore } from './kiosk-check-in-store';
import './kiosk-finish.css';

/**
 * The questionnaires step (docs/rules/kiosk.md#finishing-at-the-kiosk): each unanswered
 * questionnaire due before the visit, one at a time, through the same run as the questionnaires
 * page (kiosk-feedback.tsx does the same). Each can be left for the desk; closing the survey
 * unanswered comes back here to choose.
 */
export const QuestionnairesStep = observer(function QuestionnairesStep({ store }: { store: KioskCheckInStore }) {
  const root = useStores();
  const { t } = useTranslation();
  const id = useId();
  const run = root.featureStore(questionnaireStoreOf);
  const textsReady = useQuestionnaireTexts(root.i18n.i18n, root.i18n.locale);
  const finish = store.finish;
  const item = finish.currentQuestionnaire;
  const bookingKey = store.bookingKey;
  const started = useRef(false);

  useEffect(() => {
    preloadSurveyModal();
    return () => run.reset();
  }, [run]);

  // The run of this one questionnaire ended: answered goes on; closed unanswered stays to choose.
  useEffect(() => {
    if (!started.current || run.state !== 'done') return;
    started.current = false;
    const answered = run.answeredCount > 0;
    run.reset();
    if (answered) void store.questionnaireDone(true);
  }, [run, run.state, run.answeredCount, store]);

  if (item === null || bookingKey === null) return null;
  const answer = () => {
    started.current = true;
    void run.run('APPOINTMENT', bookingKey, [item]);
  };
  const position = { index: finish.questionnaireIndex + 1, count: finish.questionnaires.length };
  return (
    <section className="pp-kiosk-card pp-kiosk-questionnaires" aria-labelledby={`${id}-title`}>
      <p className="pp-kiosk-hint">{t('kiosk.questionnaires.position', position)}</p>
      <h2 id={`${id}-title`}>{t('kiosk.questionnaires.heading')}</h2>
      <p>{t('kiosk.questionnaires.intro')}</p>
      <p className="pp-kiosk-questionnaire-title">{item.questionnaire.title}</p>
      <div className="pp-kiosk-finish-actions">
        <Button onClick={answer} disabled={run.state === 'answering' || run.state === 'loading'}>
          {t('kiosk.questionnaires.answer')}
        </Button>
        <Button variant="secondary" onClick={() => void store.questionnaireDone(false)}>
          {t('kiosk.questionnaires.atDesk')}
        </Button>
      </div>
      {textsReady && <QuestionnaireRunModal store={run} locale={root.i18n.locale} />}
    </section>
  );
});
