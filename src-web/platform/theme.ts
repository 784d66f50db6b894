import type { ThemeConfig as AntdThemeConfig } from 'antd';
import type { ThemeConfig } from '@contract/api/config';
import { readableColor } from '@contract/shell/theme-variables';

/** The antd theme tokens from the provider's theme (colours and fonts). */
export function toAntdTheme(theme: ThemeConfig): AntdThemeConfig {
  return {
    token: {
      colorPrimary: theme.colorPrimary,
      colorLink: readableColor(theme.colorLink, theme.colorBackground),
      colorText: readableColor(theme.colorText, theme.colorBackground),
      colorBgBase: theme.colorBackground,
      fontFamily: theme.fontFamily,
      borderRadius: theme.borderRadius,
    },
  };
}
