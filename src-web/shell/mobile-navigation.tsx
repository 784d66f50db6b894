import { observer } from 'mobx-react-lite';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { applicationImageUrl } from '../api/assets-api';
import { useStores } from '../stores/use-stores';
import { useHomeHref } from './embedded';
import { CloseIcon, MenuIcon } from '../components/icons';
import { PortalLink } from '../components/portal-link';
import { useMenuDisclosure } from './menu-disclosure';
import { useNavTargets } from './nav-targets';
import { StaffSignInButton } from './staff-sign-in-button';
import { StaffSignInNotice, StaffToolItems } from './staff-nav-lazy';
import './navigation.css';

interface MobileNavigationProps {
  /** False on confirmation pages unless the provider shows the menu there. */
  showMenu: boolean;
  /** "Cookie settings" (docs/rules/analytics.md#consent), or null where it does not apply. */
  openCookieSettings: (() => void) | null;
}

/** Phone navigation: logo and a disclosure menu button (aria-expanded / aria-controls). */
export const MobileNavigation = observer(function MobileNavigation({ showMenu, openCookieSettings }: MobileNavigationProps) {
  const { config, staff } = useStores();
  const { t } = useTranslation();
  const home = useHomeHref();
  const targets = useNavTargets();
  const location = useLocation();
  // The menu is open for the location it was opened on, so any navigation closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = showMenu && openAt === location.key;
  const close = () => setOpenAt(null);
  const { menuId, onKeyDown, buttonProps } = useMenuDisclosure(open, close);

  const links: { key: string; href: string | null; label: string }[] = [
    { key: 'login', href: targets.login, label: t('nav.login') },
    { key: 'home', href: targets.home, label: t('nav.home') },
    { key: 'about', href: targets.about, label: t('nav.about') },
    { key: 'contact', href: targets.contact, label: t('nav.contact') },
    { key: 'terms', href: targets.terms, label: t('nav.terms') },
    { key: 'privacy', href: targets.privacy, label: t('nav.privacy') },
  ];

  return (
    <nav className="pp-nav pp-nav-mobile" aria-label={t('nav.label')} onKeyDown={onKeyDown}>
      <div className="pp-nav-bar">
        <Link to={home} className="pp-logo-link">
          <img className="pp-logo" src={applicationImageUrl('logo')} alt={t('nav.logo', { name: config.radiology.name })} />
        </Link>
        {showMenu && (
          <button {...buttonProps} onClick={() => setOpenAt(open ? null : location.key)}>
            {open ? <CloseIcon /> : <MenuIcon />}
            <span>{t('nav.menu')}</span>
          </button>
        )}
      </div>
      {staff.problem !== null && staff.problemShownIn === 'navigation' && (
        <Suspense fallback={null}>
          <StaffSignInNotice />
        </Suspense>
      )}
      {showMenu && (
        <ul id={menuId} className="pp-mobile-menu" aria-label={t('nav.menuLabel')} hidden={!open}>
          {targets.staffSignIn && (
            <li>
              <StaffSignInButton onDone={close}>{t('nav.login')}</StaffSignInButton>
            </li>
          )}
          {staff.user !== null && (
            <Suspense fallback={null}>
              <StaffToolItems adminPanel={targets.adminPanel} onNavigate={close} />
            </Suspense>
          )}
          {staff.user !== null && (
            <li>
              <button type="button" disabled={staff.busy} onClick={() => void staff.signOut().finally(close)}>
                {t('nav.logout')} ({staff.user.username})
              </button>
            </li>
          )}
          {links.map(
            (link) =>
              link.href && (
                <li key={link.key}>
                  <PortalLink href={link.href} onClick={close}>
                    {link.label}
                  </PortalLink>
                </li>
              ),
          )}
          {openCookieSettings && (
            <li>
              <button
                type="button"
                onClick={() => {
                  close();
                  openCookieSettings();
                }}
              >
                {t('footer.cookieSettings')}
              </button>
            </li>
          )}
        </ul>
      )}
    </nav>
  );
});
