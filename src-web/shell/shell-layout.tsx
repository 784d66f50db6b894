import { observer } from 'mobx-react-lite';
import { Outlet, useLocation } from 'react-router-dom';
import { isAdvancedBooking, pageType } from '../platform/page-type';
import { useStores } from '../stores/use-stores';
import { Banner } from './banner';
import { DesktopNavigation } from './desktop-navigation';
import { EmbeddedContext } from './embedded';
import { EnvironmentBanner } from './environment-banner';
import { Footer } from './footer';
import { HeaderImage } from './header-image';
import { MobileNavigation } from './mobile-navigation';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';
import { useFocusMainOnNavigate } from './use-focus-main';

interface ShellLayoutProps {
  embedded: boolean;
}

/**
 * Banner, header (navigation and header image), main, footer, environment banner.
 * The embedded variant (/iframe) has no footer and no header picture: the provider's
 * own page around the frame already has them.
 */
const ShellLayout = observer(function ShellLayout({ embedded }: ShellLayoutProps) {
  const { ui, config } = useStores();
  const { pathname } = useLocation();
  const mainRef = useFocusMainOnNavigate();

  const type = pageType(pathname);
  const showMenu = type !== 'confirmation' || config.radiology.showMenuOnConfirmationPage;
  const showFooter = !embedded && !ui.isMobile && !isAdvancedBooking(pathname);

  return (
    <div className={`pp-app pp-device-${ui.device}${embedded ? ' pp-embedded' : ''}`}>
      <SkipLink />
      <EnvironmentBanner edge="top" />
      <Banner />
      <header className="pp-header">
        {ui.isMobile ? <MobileNavigation showMenu={showMenu} /> : <DesktopNavigation />}
        {!embedded && <HeaderImage />}
      </header>
      <main id={MAIN_CONTENT_ID} ref={mainRef} tabIndex={-1} className="pp-main">
        <Outlet />
      </main>
      {showFooter && <Footer />}
      <EnvironmentBanner edge="bottom" />
    </div>
  );
});

/** The top-level layout of the website. */
export function PortalLayout() {
  return <ShellLayout embedded={false} />;
}

/** The /iframe layout: banner, navigation and outlet, with the embedded flag on. */
export function EmbeddedLayout() {
  return (
    <EmbeddedContext.Provider value={true}>
      <ShellLayout embedded={true} />
    </EmbeddedContext.Provider>
  );
}
