import type { BookingQuestionnaireHooks } from '../booking/public';
import type { RootStore } from '../../stores/root-store';

/** The questionnaire code of the booking flow: its own chunk, loaded when the patient continues from the exams. */
export const loadBookingQuestionnaires = () => import('./booking-questionnaires');

/**
 * The booking store's questionnaire hooks. This file is tiny and ships with the booking
 * home; everything it calls (and SurveyJS) downloads only when the exams are chosen.
 * @param onOpen - called once the questionnaire code is there (the page then renders its modal).
 */
export function bookingQuestionnaireHooks(root: RootStore, onOpen: () => void): BookingQuestionnaireHooks {
  return {
    beforeLocation: async (slugs) => {
      let module: Awaited<ReturnType<typeof loadBookingQuestionnaires>>;
      try {
        module = await loadBookingQuestionnaires();
      } catch {
        // The chunk did not download: booking goes on, the server checks stored answers anyway.
        return true;
      }
      onOpen();
      return module.beforeLocation(root, slugs);
    },
    afterFailure: async () => (await loadBookingQuestionnaires()).afterFailure(root),
  };
}
