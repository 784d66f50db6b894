// What other areas may use of the questionnaires area (the booking page asks its questionnaires through these hooks).
export { bookingQuestionnaireHooks, loadBookingQuestionnaires } from './booking-questionnaire-hooks';
