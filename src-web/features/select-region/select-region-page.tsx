import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../paths';
import { Page } from '../../components/page';
import { safeInternalPath } from '../../platform/safe-url';
import { useStores } from '../../stores/use-stores';

/**
 * Where a `link` query parameter sends the embedded portal: a same-origin path only,
 * kept inside the embedded layout. Null when there is nowhere (else) to go.
 */
export function embeddedLinkTarget(link: string | null): string | null {
  const path = safeInternalPath(link);
  if (!path) return null;
  const target = paths.embedded(path);
  return target.split('?')[0] === paths.selectRegion() && !target.includes('?') ? null : target;
}

/** /iframe/select-region: the default embedded page, or a jump to the page its `link` names. */
export const SelectRegionPage = observer(function SelectRegionPage() {
  const { config } = useStores();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = embeddedLinkTarget(params.get('link'));
  if (target) return <Navigate to={target} replace />;
  return (
    <Page title={t('selectRegion.title', { name: config.radiology.name })} className="pp-select-region">
      <p>{t('selectRegion.text')}</p>
      <nav aria-label={t('selectRegion.linksLabel')}>
        <ul className="pp-link-list">
          <li>
            <Link to={paths.embedded(paths.advancedBooking())}>{t('selectRegion.book')}</Link>
          </li>
          <li>
            <Link to={paths.embedded(paths.questionnaires())}>{t('selectRegion.questionnaires')}</Link>
          </li>
          <li>
            <Link to={paths.embedded(paths.contact())}>{t('selectRegion.contact')}</Link>
          </li>
          <li>
            <Link to={paths.embedded(paths.about())}>{t('selectRegion.about')}</Link>
          </li>
        </ul>
      </nav>
    </Page>
  );
});
