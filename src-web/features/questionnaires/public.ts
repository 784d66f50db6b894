// What other areas may use of the questionnaires area (the booking page asks its questionnaires through these hooks).
export { bookingQuestionnaireHooks, loadBookingQuestionnaires } from './booking-questionnaire-hooks';
/** The kiosk asks the FEEDBACK questionnaire through the same run as the questionnaires page. */
export { questionnaireStoreOf, type QuestionnaireStore } from './questionnaire-store';
export { preloadSurveyModal, QuestionnaireRunModal } from './survey-modal-lazy';
/** The referrer feedback page opens its own questionnaire (not a run) in the same modal. */
export { LazySurveyModal } from './survey-modal-lazy';
