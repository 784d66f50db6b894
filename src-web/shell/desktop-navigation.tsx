import { observer } from 'mobx-react-lite';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { applicationImageUrl } from '../api/assets-api';
import { useStores } from '../stores/use-stores';
import { useHomeHref } from './embedded';
import { UserIcon } from '../components/icons';
import { PortalLink } from '../components/portal-link';
import { useNavTargets } from './nav-targets';
import { StaffSignInButton } from './staff-sign-in-button';
import { StaffSignInNotice, StaffUserMenu } from './staff-nav-lazy';
import './navigation.css';

/** Desktop and tablet navigation: logo home, optional header message, the staff login or the signed-in staff member. */
export const DesktopNavigation = observer(function DesktopNavigation() {
  const { config, staff } = useStores();
  const { t } = useTranslation();
  const home = useHomeHref();
  const targets = useNavTargets();
  const loginIcon = (
    <>
      <UserIcon />
      <span className="pp-visually-hidden">{t('nav.login')}</span>
    </>
  );
  return (
    <nav className="pp-nav" aria-label={t('nav.label')}>
      <Link to={home} className="pp-logo-link">
        <img className="pp-logo" src={applicationImageUrl('logo')} alt={t('nav.logo', { name: config.radiology.name })} />
      </Link>
      {config.app.headerMessage && <p className="pp-header-message">{config.app.headerMessage}</p>}
      {targets.login && (
        <PortalLink href={targets.login} className="pp-login-link">
          {loginIcon}
        </PortalLink>
      )}
      {targets.staffSignIn && <StaffSignInButton className="pp-login-link">{loginIcon}</StaffSignInButton>}
      {(staff.user !== null || (staff.problem !== null && staff.problemShownIn === 'navigation')) && (
        <Suspense fallback={null}>
          {staff.user !== null ? <StaffUserMenu adminPanel={targets.adminPanel} /> : <StaffSignInNotice />}
        </Suspense>
      )}
    </nav>
  );
});
