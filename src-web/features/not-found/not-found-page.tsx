import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useHomeHref } from '../../shell/embedded';
import { Page } from '../../components/page';

/** Unknown paths: a page inside the shell, so navigation and footer stay. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const home = useHomeHref();
  return (
    <Page title={t('notFound.title')} className="pp-not-found">
      <p>{t('notFound.text')}</p>
      <p>
        <Link to={home}>{t('action.goHome')}</Link>
      </p>
    </Page>
  );
}
