import type { QuestionnaireTheme, ThemeConfig } from '@contract/api/config';
import { readableColor } from '@contract/shell/theme-variables';

/**
 * SurveyJS themed from the provider (docs/rules/questionnaires.md#look): the theme service's
 * colours and font, with the app config's questionnaire styling over them. The result goes to
 * `survey.applyTheme({ cssVariables })`, which SurveyJS sets on its root element through the
 * style property (CSSOM), so no <style> element and no 'unsafe-inline' is needed.
 */
export function surveyThemeVariables(theme: ThemeConfig, styling?: QuestionnaireTheme | null): Record<string, string> {
  const background = styling?.colorBackground ?? '#ffffff';
  const primary = styling?.colorPrimary ?? theme.colorPrimary;
  // A configured colour is used as given only where it stays AA readable (buttons, selected text).
  const brand = readableColor(primary, background);
  const text = readableColor(styling?.colorText ?? theme.colorText, background);
  const font = styling?.fontFamily ?? theme.fontFamily;
  const radius = styling?.borderRadius ?? theme.borderRadius;
  const variables: Record<string, string> = {
    // SurveyJS derives its hover, pressed, focus and tint shades from brand-600.
    '--sjs2-color-project-brand-600': brand,
    '--sjs2-color-project-brand-700': brand,
    '--sjs2-color-fg-brand-primary': brand,
    '--sjs2-color-fg-brand-on-primary': readableColor('#ffffff', brand),
    '--sjs2-color-fg-basic-primary': text,
    '--sjs2-color-utility-sheet': background,
    '--sjs2-color-bg-basic-primary': background,
    '--sjs2-typography-font-family-text': font,
    '--sjs2-base-unit-radius': `${Math.max(radius, 2)}px`,
  };
  if (styling?.fontSize) variables['--sjs2-base-unit-font-size'] = `${styling.fontSize / 2}px`;
  return variables;
}
