import { useTranslation } from 'react-i18next';
import { Button } from '../components/button';

/** Shown when the configuration cannot be loaded at all (no stores, no router yet). */
export function BootstrapError() {
  const { t } = useTranslation();
  return (
    <main className="pp-page pp-app-error">
      <h1>{t('error.title')}</h1>
      <p>{t('app.bootstrapError')}</p>
      <Button onClick={() => window.location.reload()}>{t('action.reload')}</Button>
    </main>
  );
}
