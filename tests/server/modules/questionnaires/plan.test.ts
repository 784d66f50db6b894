import { describe, expect, it } from 'vitest';
import { sanitizeSurveyJson } from '../../../../src-server/modules/questionnaires/plan';

describe('HTML in a questionnaire definition', () => {
  it('is sanitised in every HTML property, localised or not, and nothing else changes', () => {
    const json = {
      completedHtml: { default: '<p>Thanks</p><script>alert(1)</script>', mk: '<p onclick="x()">Благодарам</p>' },
      loadingHtml: '<img src="x" onerror="alert(2)">',
      pages: [
        {
          elements: [
            {
              type: 'html',
              name: 'intro',
              html: '<p>Read <a href="https://example.com" target="_blank">this</a></p><iframe src="https://evil.example"></iframe>',
            },
            { type: 'text', name: 'note', title: '<b>kept as text</b>' },
          ],
        },
      ],
      completedHtmlOnCondition: [{ expression: "{note} = 'x'", html: '<p>X</p><script>alert(3)</script>' }],
    };
    const clean = sanitizeSurveyJson(json) as typeof json;
    expect(clean.completedHtml.default).toBe('<p>Thanks</p>');
    expect(clean.completedHtml.mk).toBe('<p>Благодарам</p>');
    expect(clean.loadingHtml).not.toMatch(/onerror/);
    const [intro, note] = clean.pages[0]?.elements ?? [];
    expect(intro?.html).toBe('<p>Read <a href="https://example.com" target="_blank" rel="noopener noreferrer">this</a></p>');
    expect(note).toEqual(json.pages[0]?.elements[1]);
    expect(clean.completedHtmlOnCondition[0]).toEqual({ expression: "{note} = 'x'", html: '<p>X</p>' });
  });
});
