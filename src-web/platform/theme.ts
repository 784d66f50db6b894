import type { ThemeConfig as AntdThemeConfig } from 'antd';
import type { ThemeConfig } from '@contract/api/config';
import { readableColor } from '@contract/shell/theme-variables';

/**
 * The antd theme tokens from the provider's theme (colours and fonts). A link keeps its readable
 * colour under the pointer and while pressed: antd would derive a lighter hover shade, which falls
 * below AA contrast for most mid-tone link colours.
 */
export function toAntdTheme(theme: ThemeConfig): AntdThemeConfig {
  const link = readableColor(theme.colorLink, theme.colorBackground);
  return {
    token: {
      colorPrimary: theme.colorPrimary,
      colorLink: link,
      colorLinkHover: link,
      colorLinkActive: link,
      colorText: readableColor(theme.colorText, theme.colorBackground),
      colorBgBase: theme.colorBackground,
      fontFamily: theme.fontFamily,
      borderRadius: theme.borderRadius,
    },
  };
}
