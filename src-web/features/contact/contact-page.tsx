import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ContactClinic } from '@contract/api/config';
import { Page } from '../../components/page';
import { SafeHtml } from '../../components/safe-html';
import { paths } from '../../paths';
import { safeRedirectUrl } from '../../platform/safe-url';
import { usePortalHref } from '../../shell/embedded';
import { useStores } from '../../stores/use-stores';
import { formatTime, openingDays, weekdayName } from './opening-hours';

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

const ClinicCard = observer(function ClinicCard({ clinic }: { clinic: ContactClinic }) {
  const { i18n } = useStores();
  const { t } = useTranslation();
  const locale = i18n.locale;
  return (
    <li className="pp-clinic">
      <h3>{clinic.name}</h3>
      <p className="pp-clinic-region">{clinic.region.name}</p>
      <address>
        <p>{t('contact.address', { ...clinic.address })}</p>
        <dl className="pp-contact-details">
          <div>
            <dt>{t('contact.phone')}</dt>
            <dd>
              <a className="pp-target-link" href={telHref(clinic.phone)}>
                {clinic.phone}
              </a>
            </dd>
          </div>
          {clinic.email && (
            <div>
              <dt>{t('contact.email')}</dt>
              <dd>
                <a className="pp-target-link" href={`mailto:${clinic.email}`}>
                  {clinic.email}
                </a>
              </dd>
            </div>
          )}
        </dl>
      </address>
      <h4>{t('contact.openingHours')}</h4>
      <dl className="pp-hours">
        {openingDays(clinic.openingHours, i18n.weekStart).map((day) => (
          <div key={day.weekday}>
            <dt>{weekdayName(day.weekday, locale)}</dt>
            <dd>
              {day.intervals.length === 0
                ? t('contact.closed')
                : day.intervals
                    .map((interval) =>
                      t('contact.hours', { opens: formatTime(interval.opens, locale), closes: formatTime(interval.closes, locale) }),
                    )
                    .join(', ')}
            </dd>
          </div>
        ))}
      </dl>
    </li>
  );
});

/** Contact: the provider's contact text and every clinic with address, phone and opening hours. */
export const ContactPage = observer(function ContactPage() {
  const { config, content } = useStores();
  const { t } = useTranslation();
  const { name, contact, contactUrl } = config.radiology;
  const more = safeRedirectUrl(contactUrl);
  const href = usePortalHref();
  useEffect(() => {
    void content.loadClinics();
  }, [content]);
  return (
    <Page title={t('contact.title')} className="pp-contact">
      <SafeHtml html={contact} className="pp-rich-text" />
      {more && (
        <p>
          <a href={more} rel="noopener">
            {t('contact.moreLink', { name })}
          </a>
        </p>
      )}
      <p className="pp-contact-callback">
        {t('contact.callbackLead')} <Link to={href(paths.callback())}>{t('contact.callbackLink')}</Link>
      </p>
      <p className="pp-emergency">{t('contact.emergency')}</p>
      <h2>{t('contact.clinics')}</h2>
      {content.clinicsState === 'error' && <p role="alert">{t('contact.loadError')}</p>}
      {(content.clinicsState === 'loading' || content.clinicsState === 'idle') && <p role="status">{t('message.loading')}</p>}
      {content.clinicsState === 'loaded' && (
        <ul className="pp-clinics">
          {content.clinics.map((clinic) => (
            <ClinicCard key={clinic.id} clinic={clinic} />
          ))}
        </ul>
      )}
    </Page>
  );
});
