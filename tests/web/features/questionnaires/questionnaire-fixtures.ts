import type { Questionnaire } from '@contract/api/questionnaires';

/** A general questionnaire with one question, as the API sends it; each test overrides only what it is about. */
export function questionnaireDefinition(overrides: Partial<Questionnaire> = {}): Questionnaire {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    slug: 'before-your-visit',
    type: 'REQUIRED_ON_CONFIRMATION',
    title: 'Before your visit',
    json: { elements: [{ type: 'comment', name: 'allergies', title: 'Any allergies?' }] },
    modalSize: 'md',
    association: 'GENERAL',
    general: true,
    modalityIds: [],
    examSlugs: [],
    outcomes: [],
    css: {},
    showClose: false,
    showClosingConfirmation: false,
    showPreviousButtonOnLastPageEnabled: true,
    ...overrides,
  };
}
