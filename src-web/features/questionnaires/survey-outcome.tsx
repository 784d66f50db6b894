import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import type { CompletionOutcome } from './questionnaire-store';

/** What follows a questionnaire run, for the next-action sentence. */
export type NextStep = 'booking' | 'none';

/**
 * What a saved questionnaire came to, in words (docs/rules/questionnaires.md#after-complete). The
 * provider's own message and the document to bring are not repeated: the booking shows them.
 */
export function useOutcomeWords(): (outcome: CompletionOutcome) => string {
  const { t } = useTranslation();
  return (outcome) => {
    const saved = t('questionnaire.outcome.saved', { title: outcome.title });
    if (outcome.kind === 'bookingRequest') return `${saved} ${t('questionnaire.outcome.bookingRequest')}`;
    if (outcome.kind === 'denied') return `${saved} ${t('message.questionnaire_denied')}`;
    return saved;
  };
}

/**
 * The outcome after the last questionnaire of a run, with the next action, as a status message
 * screen readers announce. The live region is always rendered so the words are announced when
 * they appear; it is empty while a questionnaire is open or after the patient dismissed it.
 */
export function SurveyOutcomeNotice({
  outcome,
  next,
  onDismiss,
}: {
  outcome: CompletionOutcome | null;
  next: NextStep;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const words = useOutcomeWords();
  return (
    <div role="status" className={outcome ? 'pp-survey-outcome' : 'pp-survey-outcome-empty'} data-survey-outcome={outcome?.kind}>
      {outcome && (
        <>
          <p>{words(outcome)}</p>
          {next === 'booking' && (
            <p className="pp-survey-outcome-next">
              {outcome.kind === 'bookingRequest' ? t('questionnaire.outcome.nextRequest') : t('questionnaire.outcome.nextBooking')}
            </p>
          )}
          <Button variant="secondary" onClick={onDismiss}>
            {t('questionnaire.outcome.dismiss')}
          </Button>
        </>
      )}
    </div>
  );
}
