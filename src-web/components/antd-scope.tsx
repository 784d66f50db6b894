import ConfigProvider, { type ConfigProviderProps } from 'antd/es/config-provider';
import { observer } from 'mobx-react-lite';
import { lazy, type LazyExoticComponent, type ReactElement, type ReactNode } from 'react';
import type { SupportedLocale } from '@contract/api/config';
import { loadAntdLocale } from '../i18n/antd-locale';
import { readCspNonce } from '../platform/bootstrap-config';
import { toAntdTheme } from '../platform/theme';
import { useStores } from '../stores/use-stores';

type LocalisedProvider = LazyExoticComponent<(props: ConfigProviderProps) => ReactElement>;

const providers = new Map<SupportedLocale, LocalisedProvider>();

/**
 * ConfigProvider with antd's texts for a locale, loaded once when first rendered (React.lazy, so
 * the nearest Suspense fallback shows meanwhile). When the texts cannot load, antd's built-in
 * English is used rather than failing the page.
 */
function providerFor(locale: SupportedLocale): LocalisedProvider {
  let provider = providers.get(locale);
  if (!provider) {
    provider = lazy(async () => {
      const antdLocale = await loadAntdLocale(locale).catch((error: unknown) => {
        console.warn('[i18n] antd texts unavailable, using antd defaults', error);
        return undefined;
      });
      return { default: (props: ConfigProviderProps) => <ConfigProvider {...props} locale={antdLocale} /> };
    });
    providers.set(locale, provider);
  }
  return provider;
}

/**
 * antd's theme, locale and CSP nonce around the part of a page that uses antd components.
 * It is not in app.tsx on purpose: ConfigProvider brings antd's CSS-in-JS runtime (about
 * 30 KB gzipped and the main-thread cost of generating styles), and antd's texts and dayjs
 * come with it; the booking home uses no antd component, so only pages that need antd pay
 * for it (docs/web.md#antd).
 */
export const AntdScope = observer(function AntdScope({ children }: { children: ReactNode }) {
  const { config, i18n } = useStores();
  const Provider = providerFor(i18n.locale);
  const nonce = readCspNonce(document);
  return (
    <Provider theme={toAntdTheme(config.theme)} csp={nonce ? { nonce } : undefined}>
      {children}
    </Provider>
  );
});
