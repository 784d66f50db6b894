import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/use-stores';
import './environment-banner.css';

interface EnvironmentBannerProps {
  /** Where the layout places this copy: the top corners render above the page, the bottom corners below it. */
  edge: 'top' | 'bottom';
}

/**
 * Non-production marker in the configured corner, with the read-only notice. It sits in the
 * page's flow (a strip above the banner or below the footer, aligned to its corner) so it never
 * covers the banner or the page (docs/rules/shell.md#environment-banner).
 */
export const EnvironmentBanner = observer(function EnvironmentBanner({ edge }: EnvironmentBannerProps) {
  const { config } = useStores();
  const { t } = useTranslation();
  const { production, profiles, readOnly, bannerCorner } = config.environment;
  if (production || (profiles.length === 0 && !readOnly) || !bannerCorner.startsWith(edge)) return null;
  return (
    <aside className={`pp-environment pp-environment-${bannerCorner}`} aria-label={t('environment.label')}>
      <div className="pp-environment-badge">
        {profiles.length > 0 && <p>{t('environment.profiles', { profiles: profiles.join(', ') })}</p>}
        {readOnly && <p>{t('message.access_read_only')}</p>}
      </div>
    </aside>
  );
});
