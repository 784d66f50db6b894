import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { theme as antdTheme } from 'antd';
import { describe, expect, it } from 'vitest';
import { toAntdTheme } from '../../../src-web/platform/theme';
import { contrastRatio, MIN_CONTRAST } from '@contract/shell/theme-variables';
import { ThemeConfigSchema } from '@contract/api/config';

/** The demo provider's own theme, as the portal serves it. */
const DEMO_THEME = ThemeConfigSchema.parse(
  (JSON.parse(readFileSync(join(process.cwd(), 'resources/demo-provider/provider.json'), 'utf8')) as { theme: unknown }).theme,
);

describe('the antd theme from the provider theme', () => {
  // antd's own derivation of the final tokens, as the components will use them.
  const tokens = antdTheme.getDesignToken(toAntdTheme(DEMO_THEME));

  it.each(['colorLink', 'colorLinkHover', 'colorLinkActive'] as const)(
    'keeps %s readable on the page, on cards and on a done queue row',
    (token) => {
      for (const background of [DEMO_THEME.colorBackground, '#ffffff', '#f9fafb'])
        expect(contrastRatio(tokens[token], background), `${token} ${tokens[token]} on ${background}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
    },
  );

  it('replaces an unreadable link colour in every state', () => {
    const unreadable = antdTheme.getDesignToken(toAntdTheme({ ...DEMO_THEME, colorLink: '#9ec5fe' }));
    expect([unreadable.colorLink, unreadable.colorLinkHover, unreadable.colorLinkActive]).toEqual(['#000000', '#000000', '#000000']);
  });
});
