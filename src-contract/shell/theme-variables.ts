import type { ThemeConfig } from '../api/config';

/** WCAG 2.x AA contrast for normal text. */
export const MIN_CONTRAST = 4.5;

function channel(hex: string, index: number): number {
  const value = parseInt(hex.slice(index, index + 2), 16) / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

function normalise(hex: string): string {
  const digits = hex.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits.slice(0, 6);
  return `#${full.toLowerCase()}`;
}

function luminance(hex: string): number {
  const value = normalise(hex);
  return 0.2126 * channel(value, 1) + 0.7152 * channel(value, 3) + 0.0722 * channel(value, 5);
}

/** The WCAG contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/**
 * The provider's colour when it is readable on the background, else black or white,
 * whichever reads better. Provider themes are configured by people; the portal must
 * stay AA readable whatever they choose.
 */
export function readableColor(preferred: string, background: string): string {
  if (contrastRatio(preferred, background) >= MIN_CONTRAST) return preferred;
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}

/** CSS custom properties for the shell's own stylesheet (set through CSSOM, which the CSP allows). */
export function themeVariables(theme: ThemeConfig): Record<string, string> {
  return {
    '--pp-primary': theme.colorPrimary,
    '--pp-on-primary': readableColor('#ffffff', theme.colorPrimary),
    '--pp-text': readableColor(theme.colorText, theme.colorBackground),
    '--pp-bg': theme.colorBackground,
    '--pp-link': readableColor(theme.colorLink, theme.colorBackground),
    '--pp-header-bg': theme.colorHeaderBackground,
    '--pp-header-text': readableColor(theme.colorHeaderText, theme.colorHeaderBackground),
    '--pp-footer-bg': theme.colorFooterBackground,
    '--pp-footer-text': readableColor(theme.colorFooterText, theme.colorFooterBackground),
    '--pp-font': theme.fontFamily,
    '--pp-radius': `${theme.borderRadius}px`,
  };
}
