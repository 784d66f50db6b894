import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/use-stores';

/** Non-production marker in the configured corner, with the read-only notice (docs/rules/shell.md#environment-banner). */
export const EnvironmentBanner = observer(function EnvironmentBanner() {
  const { config } = useStores();
  const { t } = useTranslation();
  const { production, profiles, readOnly, bannerCorner } = config.environment;
  if (production || (profiles.length === 0 && !readOnly)) return null;
  return (
    <aside className={`pp-environment pp-environment-${bannerCorner}`} aria-label={t('environment.label')}>
      {profiles.length > 0 && <p>{t('environment.profiles', { profiles: profiles.join(', ') })}</p>}
      {readOnly && <p>{t('message.access_read_only')}</p>}
    </aside>
  );
});
