import { when, runInAction } from 'mobx';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { QuestionnaireListResponse } from '@contract/api/questionnaires';
import { loadQuestionnaireTexts, useQuestionnaireTexts } from '../../i18n/questionnaire-texts';
import { isEmbeddedPath, paths } from '../../paths';
import { isExternalUrl, safeRedirectUrl } from '../../platform/safe-url';
import { MessageDialog } from '../../components/modal-dialog';
import { questionnaireStoreOf, type OutcomeAction, type QuestionnaireStore } from './questionnaire-store';
import type { FeatureStoreContext, RootStore } from '../../stores/root-store';
import { useStores } from '../../stores/use-stores';
import { RedirectCountdown } from './redirect-countdown';
import { preloadSurveyModal, QuestionnaireRunModal } from './survey-modal-lazy';

/**
 * The booking flow's questionnaires (docs/rules/questionnaires.md#run), loaded only once the patient continues from the
 * exam choice: the chosen exams' questionnaires open one at a time in the survey modal, answers
 * are saved as temporary answers under a temporary booking key, and each answer's outcomes
 * (evaluated on the server) are followed: deny, Medicare number or validation code required,
 * booking request instead, document to bring, walk-in exam added, exam swapped, redirect.
 */

let running = false;

/** Applies the outcome actions to the booking. */
export function followInBooking(root: RootStore, store: QuestionnaireStore, actions: OutcomeAction[]): void {
  const booking = root.booking;
  for (const action of actions) {
    switch (action.kind) {
      case 'deny':
        if (action.maxAttemptsReached) navigateTo(root, `${paths.deny()}?maxAttempts=max_attempts_reached`);
        break;
      case 'medicareNumberRequired':
        runInAction(() => (booking.examChoice.questionnaireMedicareRequired = true));
        break;
      case 'createBookingRequest':
        runInAction(() => {
          booking.examChoice.questionnaireBookingRequest = true;
          booking.examChoice.questionnaireRequestMessage = action.message;
        });
        break;
      case 'walkInExam':
        runInAction(
          () => (booking.examChoice.walkInExam = { name: action.name, prepTime: action.prepTime, minutesPrior: action.minutesPrior }),
        );
        break;
      case 'examSwap': {
        if (!booking.examChoice.examsBySlug.has(action.newSlug)) break;
        const swap = (slugs: string[]) => [...new Set(slugs.map((slug) => (slug === action.oldSlug ? action.newSlug : slug)))];
        runInAction(() => {
          booking.examChoice.selectedSlugs = swap(booking.examChoice.selectedSlugs);
          store.exams = swap(store.exams);
        });
        break;
      }
      case 'redirect':
        // Followed through the countdown once no questionnaire is open (BookingQuestionnaires).
        runInAction(() => (store.redirectUrl = safeRedirectUrl(action.url)));
        break;
      case 'validationCodeRequired':
        runInAction(() => (booking.examChoice.questionnaireValidationCodeRequired = true));
        break;
      case 'documentType':
        if (action.title)
          runInAction(() => (booking.examChoice.questionnaireDocument = { title: action.title, description: action.description }));
        break;
      case 'insuranceType':
        // Recorded with the booking by the server (it evaluates the same answers); nothing to ask.
        break;
    }
  }
}

/** The router's navigation, as feature stores get it. */
const navigatorOf = (context: FeatureStoreContext) => context.navigator;

function navigateTo(root: RootStore, url: string): void {
  if (isExternalUrl(url)) {
    window.location.assign(url);
    return;
  }
  const navigator = root.featureStore(navigatorOf)();
  navigator.navigate(isEmbeddedPath(navigator.currentUrl()) ? paths.embedded(url) : url);
}

function listFor(root: RootStore, store: QuestionnaireStore, slugs: string[]): Promise<QuestionnaireListResponse> {
  const examChoice = root.booking.examChoice;
  return store.forBooking(examChoice.questionnaireKey, slugs, (key) => runInAction(() => (examChoice.questionnaireKey = key)));
}

/**
 * Before step 1: the questionnaires of the chosen exams. Resolves true to go on, false to stay
 * on the exam choice (a denial, shown in a dialog, or a questionnaire closed unanswered).
 */
export async function beforeLocation(root: RootStore, slugs: string[]): Promise<boolean> {
  if (running) return false;
  running = true;
  const store = root.featureStore(questionnaireStoreOf);
  const booking = root.booking;
  try {
    booking.examChoice.clearQuestionnaireOutcomes();
    runInAction(() => (store.redirectUrl = null));
    let list: QuestionnaireListResponse;
    try {
      [list] = await Promise.all([listFor(root, store, slugs), loadQuestionnaireTexts(root.i18n.i18n, root.i18n.locale)]);
    } catch {
      // Questionnaires cannot be fetched now: booking goes on; the server still checks the
      // stored answers when the booking is made.
      return true;
    }
    if (list.questionnaires.length === 0) return true;
    const pending = list.questionnaires.some((item) => !item.answered);
    if (!pending) {
      // Answered earlier in this visit: their outcomes still apply to this exam choice.
      try {
        const actions = await store.bookingOutcomes(list.bookingKey, slugs);
        const denial = actions.find((action) => action.kind === 'deny');
        if (denial) {
          runInAction(() => (store.denied = { message: denial.message }));
          return false;
        }
        followInBooking(root, store, actions);
      } catch {
        // As above: the server checks again at booking.
      }
      return store.redirectUrl === null;
    }
    preloadSurveyModal();
    void store.run('BOOKING', list.bookingKey, list.questionnaires, {
      exams: slugs,
      follow: (actions) => followInBooking(root, store, actions),
    });
    await when(() => store.state === 'done');
    // A redirect sends the patient elsewhere: the booking stays on the exam choice meanwhile.
    return store.denied === null && store.redirectUrl === null && !store.closedUnanswered && store.remaining === 0;
  } finally {
    running = false;
  }
}

/** A keyed booking failed: a new key, and the answers moved to it (docs/rules/questionnaires.md#temporary-keys). */
export async function afterFailure(root: RootStore): Promise<void> {
  const store = root.featureStore(questionnaireStoreOf);
  const old = root.booking.examChoice.questionnaireKey;
  if (!old) return;
  const bookingKey = await store.reKey(old);
  runInAction(() => (root.booking.examChoice.questionnaireKey = bookingKey));
}

/**
 * The survey modal of the booking flow and the denial dialog. The outcome after the last
 * questionnaire is said in `outcomeSlot`, under the step heading, so it never covers the page,
 * and only on the step it names next (the clinic and time).
 */
export const BookingQuestionnaires = observer(function BookingQuestionnaires({ outcomeSlot }: { outcomeSlot: HTMLElement | null }) {
  const root = useStores();
  const store = root.featureStore(questionnaireStoreOf);
  const { t } = useTranslation();
  const textsReady = useQuestionnaireTexts(root.i18n.i18n, root.i18n.locale);
  if (!textsReady) return null;
  const dismiss = () => runInAction(() => (store.denied = null));
  const redirect = store.subject === 'BOOKING' && store.current === null ? safeRedirectUrl(store.redirectUrl) : null;
  const stay = () => runInAction(() => (store.redirectUrl = null));
  return (
    <>
      {store.subject === 'BOOKING' && (
        <QuestionnaireRunModal
          store={store}
          locale={root.i18n.locale}
          next="booking"
          outcomeSlot={outcomeSlot}
          outcomeShown={root.booking.step === 1}
          forPatient={root.booking.staffBooking}
        />
      )}
      {store.subject === 'BOOKING' && store.denied && (
        <MessageDialog title={t('questionnaire.denied')} closeText={t('action.close')} onClose={dismiss}>
          <p data-questionnaire-denied>{store.denied.message || t('message.questionnaire_denied')}</p>
        </MessageDialog>
      )}
      {redirect !== null && (
        <RedirectCountdown
          url={redirect}
          onGo={() => {
            stay();
            navigateTo(root, redirect);
          }}
          onStay={stay}
        />
      )}
    </>
  );
});
