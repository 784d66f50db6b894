import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import { reportError } from '../platform/error-reporting';
import { Page } from '../components/page';
import { Button } from '../components/button';

/**
 * The error boundary of every route (one per area): a crash or a chunk that fails to load
 * shows this inside the shell, and the banner, navigation and footer keep working.
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => {
    console.error('[route] page failed', error);
    reportError(error);
  }, [error]);
  return (
    <Page title={t('error.title')}>
      <p>{t('error.text')}</p>
      <Button onClick={() => window.location.reload()}>{t('action.reload')}</Button>
    </Page>
  );
}
