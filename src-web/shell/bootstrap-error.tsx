import { useTranslation } from 'react-i18next';
import { AppErrorPage } from './app-error-page';

/** Shown when the configuration cannot be loaded at all (no stores, no router yet). */
export function BootstrapError() {
  const { t } = useTranslation();
  return <AppErrorPage text={t('app.bootstrapError')} />;
}
