import { describe, expect, it } from 'vitest';
import { QuestionnaireThemeSchema, type ThemeConfig } from '@contract/api/config';
import { surveyThemeVariables } from '../../../../src-web/features/questionnaires/survey-theme';
import { contrastRatio } from '@contract/shell/theme-variables';

const THEME: ThemeConfig = {
  colorPrimary: '#0b5f7a',
  colorText: '#1f2933',
  colorBackground: '#f7fafb',
  colorLink: '#0a5c8a',
  colorHeaderBackground: '#0c3b4f',
  colorHeaderText: '#ffffff',
  colorFooterBackground: '#eef3f6',
  colorFooterText: '#33414d',
  fontFamily: 'system-ui, sans-serif',
  borderRadius: 6,
};

describe('surveyThemeVariables', () => {
  it("uses the provider's primary colour, text colour, font and corners instead of SurveyJS's green", () => {
    const variables = surveyThemeVariables(THEME);
    expect(variables['--sjs2-color-project-brand-600']).toBe('#0b5f7a');
    expect(variables['--sjs2-color-fg-brand-primary']).toBe('#0b5f7a');
    expect(variables['--sjs2-color-fg-brand-on-primary']).toBe('#ffffff');
    expect(variables['--sjs2-color-fg-basic-primary']).toBe('#1f2933');
    expect(variables['--sjs2-typography-font-family-text']).toBe('system-ui, sans-serif');
    expect(variables['--sjs2-base-unit-radius']).toBe('6px');
    expect(Object.values(variables).join(' ')).not.toMatch(/19b394/i);
  });

  it("lays the app config's questionnaire styling over the theme", () => {
    const variables = surveyThemeVariables(THEME, { colorPrimary: '#7a1f5c', fontFamily: 'Georgia, serif', borderRadius: 0, fontSize: 18 });
    expect(variables['--sjs2-color-project-brand-600']).toBe('#7a1f5c');
    expect(variables['--sjs2-typography-font-family-text']).toBe('Georgia, serif');
    expect(variables['--sjs2-base-unit-font-size']).toBe('9px');
    // A square corner is still drawn with a hint of rounding SurveyJS's controls need.
    expect(variables['--sjs2-base-unit-radius']).toBe('2px');
  });

  it('keeps a pale configured primary readable: buttons and selected choices fall back to black or white', () => {
    const variables = surveyThemeVariables({ ...THEME, colorPrimary: '#ffe680' });
    const brand = variables['--sjs2-color-project-brand-600'] ?? '';
    expect(contrastRatio(brand, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('validates the questionnaire styling strictly: unknown fields, CSS in a font, colours that are not hex', () => {
    expect(QuestionnaireThemeSchema.safeParse({ colorPrimary: '#123456' }).success).toBe(true);
    expect(QuestionnaireThemeSchema.safeParse({ colour: '#123456' }).success).toBe(false);
    expect(QuestionnaireThemeSchema.safeParse({ fontFamily: 'x; } body { display: none' }).success).toBe(false);
    expect(QuestionnaireThemeSchema.safeParse({ colorPrimary: 'red' }).success).toBe(false);
  });
});
