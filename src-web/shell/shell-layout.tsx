import { observer } from 'mobx-react-lite';
import { Outlet, useLocation } from 'react-router-dom';
import { isAdvancedBooking, pageType } from '@contract/shell/page-type';
import { useStores } from '../stores/use-stores';
import { Banner } from './banner';
import { DesktopNavigation } from './desktop-navigation';
import { EnvironmentBanner } from './environment-banner';
import { Footer } from './footer';
import { HeaderImage } from './header-image';
import { MobileNavigation } from './mobile-navigation';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';
import { useFocusMainOnNavigate } from './use-focus-main';

/**
 * The website's layout: banner, header (navigation and header image), main, footer, environment
 * banner. The /iframe pages have their own layout without any of them (embedded-layout.tsx).
 */
export const PortalLayout = observer(function PortalLayout() {
  const { ui, config } = useStores();
  const { pathname } = useLocation();
  const mainRef = useFocusMainOnNavigate();

  const type = pageType(pathname);
  const showMenu = type !== 'confirmation' || config.radiology.showMenuOnConfirmationPage;
  const showFooter = !ui.isMobile && !isAdvancedBooking(pathname);
  // "Cookie settings" where the consent banner applies (docs/rules/analytics.md#consent; the consent chunk says so).
  const openCookieSettings = ui.cookieSettingsOffered ? () => ui.openCookieSettings() : null;

  return (
    <div className={`pp-app pp-device-${ui.device}`}>
      <SkipLink />
      <EnvironmentBanner edge="top" />
      <Banner />
      <header className="pp-header">
        {ui.isMobile ? <MobileNavigation showMenu={showMenu} openCookieSettings={openCookieSettings} /> : <DesktopNavigation />}
        <HeaderImage />
      </header>
      <main id={MAIN_CONTENT_ID} ref={mainRef} tabIndex={-1} className="pp-main">
        <Outlet />
      </main>
      {showFooter && <Footer openCookieSettings={openCookieSettings} />}
      <EnvironmentBanner edge="bottom" />
    </div>
  );
});
