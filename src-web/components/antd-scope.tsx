import ConfigProvider from 'antd/es/config-provider';
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';
import { readCspNonce } from '../platform/bootstrap-config';
import { toAntdTheme } from '../platform/theme';
import { useStores } from '../stores/use-stores';

/**
 * antd's theme, locale and CSP nonce around the part of a page that uses antd components.
 * It is not in app.tsx on purpose: ConfigProvider brings antd's CSS-in-JS runtime (about
 * 30 KB gzipped and the main-thread cost of generating styles), and the booking home uses no
 * antd component, so only pages that need antd pay for it (docs/web.md#antd).
 */
export const AntdScope = observer(function AntdScope({ children }: { children: ReactNode }) {
  const { config, i18n } = useStores();
  const nonce = readCspNonce(document);
  return (
    <ConfigProvider theme={toAntdTheme(config.theme)} locale={i18n.antdLocale} csp={nonce ? { nonce } : undefined}>
      {children}
    </ConfigProvider>
  );
});
