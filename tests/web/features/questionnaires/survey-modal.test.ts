import { describe, expect, it } from 'vitest';
import { createSurveyModel } from '../../../../src-web/features/questionnaires/survey-modal';
import type { SurveyQuestionnaire } from '../../../../src-web/features/questionnaires/questionnaire-store';

function questionnaire(json: Record<string, unknown>): SurveyQuestionnaire {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    type: 'REQUIRED_ON_CONFIRMATION',
    title: 'Before your visit',
    json,
    modalSize: 'md',
    css: {},
    showClose: true,
    showClosingConfirmation: false,
    showPreviousButtonOnLastPageEnabled: true,
  };
}

describe('the survey model', () => {
  it('sanitises the HTML it renders (html questions, the completed page) in the browser as well', () => {
    const model = createSurveyModel(
      questionnaire({
        completedHtml: '<p>Done</p><img src="x" onerror="window.pwned = true">',
        elements: [{ type: 'html', name: 'intro', html: '<p>Read this</p><script>window.pwned = true</script>' }],
      }),
      { progressText: (answered, total) => `Answered ${answered} of ${total}` },
    );
    const intro = model.getQuestionByName('intro') as unknown as { locHtml: { renderedHtml: string } };
    expect(intro.locHtml.renderedHtml).toBe('<p>Read this</p>');
    expect(model.processedCompletedHtml).toBe('<p>Done</p><img>');
  });

  it("reads progress as 'Answered {0} of {1}'", () => {
    const model = createSurveyModel(
      questionnaire({
        elements: [
          { type: 'text', name: 'a' },
          { type: 'text', name: 'b' },
        ],
      }),
      {
        progressText: (answered, total) => `Answered ${answered} of ${total}`,
      },
    );
    model.setValue('a', 'x');
    expect(model.progressText).toBe('Answered 1 of 2');
  });
});

describe('the survey model in the portal look', () => {
  it("takes the provider's theme variables, shows no title of its own and asks yes/no with one radio group", () => {
    const model = createSurveyModel(
      questionnaire({ title: 'Before your visit', elements: [{ type: 'boolean', name: 'needsInterpreter', isRequired: true }] }),
      {
        progressText: (answered, total) => `Answered ${answered} of ${total}`,
        yesNo: { yes: 'Yes', no: 'No' },
        themeVariables: { '--sjs2-color-project-brand-600': '#0b5f7a' },
      },
    );
    expect(model.themeVariables['--sjs2-color-project-brand-600']).toBe('#0b5f7a');
    expect(model.showTitle).toBe(false);
    const question = model.getQuestionByName('needsInterpreter');
    expect(question.getType()).toBe('radiogroup');
    question.value = false;
    expect(model.data).toEqual({ needsInterpreter: false });
  });
});
