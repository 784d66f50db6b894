import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../paths';
import { Page } from '../../components/page';
import { safeInternalPath } from '../../platform/safe-url';
import { useStores } from '../../stores/use-stores';
import { clinicBookingHref, groupByRegion, regionBookingHref } from './region-clinics';
import './select-region.css';

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

/** The regions and their clinics, each a way into booking inside the frame. */
const RegionList = observer(function RegionList() {
  const { content } = useStores();
  const { t } = useTranslation();
  const booking = paths.embedded(paths.advancedBooking());
  if (content.clinicsState === 'error') return <p role="alert">{t('selectRegion.loadError')}</p>;
  if (content.clinicsState !== 'loaded') return <p role="status">{t('message.loading')}</p>;
  return (
    <ul className="pp-regions">
      {groupByRegion(content.clinics).map((group) => (
        <li key={group.region.id} className="pp-region">
          <h3>{group.region.name}</h3>
          <Link className="pp-region-book" to={regionBookingHref(booking, group)}>
            {t('selectRegion.bookInRegion', { region: group.region.name })}
          </Link>
          <ul className="pp-region-clinics">
            {group.clinics.map((clinic) => (
              <li key={clinic.id}>
                <Link to={clinicBookingHref(booking, clinic)}>{t('selectRegion.bookAtClinic', { clinic: clinic.name })}</Link>
                <span className="pp-region-address">{t('contact.address', { ...clinic.address })}</span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
});

/** /iframe/select-region: the embedded start page (regions and clinics), or a jump to the page its `link` names. */
export const SelectRegionPage = observer(function SelectRegionPage() {
  const { config, content } = useStores();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = embeddedLinkTarget(params.get('link'));
  useEffect(() => {
    if (!target) void content.loadClinics();
  }, [content, target]);
  if (target) return <Navigate to={target} replace />;
  return (
    <Page title={t('selectRegion.title', { name: config.radiology.name })} className="pp-select-region">
      <p>{t('selectRegion.text')}</p>
      <p>
        <Link className="pp-button" to={paths.embedded(paths.advancedBooking())}>
          {t('selectRegion.book')}
        </Link>
      </p>
      <h2>{t('selectRegion.regionsHeading')}</h2>
      <p>{t('selectRegion.regionsText')}</p>
      <RegionList />
      <nav aria-label={t('selectRegion.linksLabel')}>
        <ul className="pp-link-list pp-select-region-more">
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
