import { lazyTexts } from './lazy-texts';

/**
 * The texts of the questionnaires (the survey modal, the /questionnaires page, the booking
 * flow's questionnaire outcomes): questionnaires.json, loaded with the questionnaire code.
 */
const texts = lazyTexts(() => import('./locales/en/questionnaires.json'), {
  mk: () => import('./locales/mk/questionnaires.json'),
});

export const loadQuestionnaireTexts = texts.load;
export const useQuestionnaireTexts = texts.useTexts;
