import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useHomeHref } from '../../shell/embedded';
import { Page } from '../../components/page';

/** What every area that is not built yet shows: a clear sentence and a way home, never a blank page. */
export function NotAvailablePage() {
  const { t } = useTranslation();
  const home = useHomeHref();
  return (
    <Page title={t('notAvailable.title')} className="pp-not-available">
      <p>{t('notAvailable.text')}</p>
      <p>
        <Link to={home}>{t('action.goHome')}</Link>
      </p>
    </Page>
  );
}
