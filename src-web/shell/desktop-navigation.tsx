import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { applicationImageUrl } from '../api/assets-api';
import { useStores } from '../stores/use-stores';
import { useHomeHref } from './embedded';
import { UserIcon } from '../components/icons';
import { PortalLink } from '../components/portal-link';
import { useNavTargets } from './nav-targets';

/** Desktop and tablet navigation: logo home, optional header message, staff login icon. */
export const DesktopNavigation = observer(function DesktopNavigation() {
  const { config } = useStores();
  const { t } = useTranslation();
  const home = useHomeHref();
  const targets = useNavTargets();
  return (
    <nav className="pp-nav" aria-label={t('nav.label')}>
      <Link to={home} className="pp-logo-link">
        <img className="pp-logo" src={applicationImageUrl('logo')} alt={t('nav.logo', { name: config.radiology.name })} />
      </Link>
      {config.app.headerMessage && <p className="pp-header-message">{config.app.headerMessage}</p>}
      {targets.login && (
        <PortalLink href={targets.login} className="pp-login-link">
          <UserIcon />
          <span className="pp-visually-hidden">{t('nav.login')}</span>
        </PortalLink>
      )}
    </nav>
  );
});
