import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { applicationImageUrl } from '../../api/assets-api';
import { Button } from '../../components/button';
import { InertLinks } from '../../components/safe-html';
import { useKioskTexts } from '../../i18n/kiosk-texts';
import { readKioskCookie } from '../../platform/kiosk-cookies';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { MAIN_CONTENT_ID } from '../../shell/skip-link';
import { useFocusMainOnNavigate } from '../../shell/use-focus-main';
import { useStores } from '../../stores/use-stores';
import { kioskDeviceStoreOf } from '../kiosk-check-in/public';
import { endKioskSession } from '../kiosk-idle/public';
import { KioskKeyboard } from '../kiosk-keyboard/public';
import { KioskLanguage } from './kiosk-language';
import './kiosk-shell.css';

/**
 * The kiosk's own frame (docs/rules/kiosk.md#the-kiosk-shell), on every page in kiosk mode: the
 * provider's logo and the clinic's name, the language choice, the help line and Start again.
 * The on-screen keyboard opens in the bottom bar under a focused field. Nothing else: no environment badge, banner, navigation, header picture or footer links, and
 * links inside the provider's HTML are inert, so no tap leaves the check-in flow.
 */
export const KioskLayout = observer(function KioskLayout() {
  const root = useStores();
  const device = root.featureStore(kioskDeviceStoreOf);
  const textsReady = useKioskTexts(root.i18n.i18n, root.i18n.locale);
  const mainRef = useFocusMainOnNavigate();
  const { t } = useTranslation();
  // The device store knows the clinic once the kiosk home asked the server; pages opened
  // directly (the appointment page in kiosk mode) read the name the kiosk keeps in its cookie.
  const clinic = device.patientName || readKioskCookie(document, 'patientKioskIdentity') || '';

  // Dialogs render outside the frame's element; the class on <html> lets kiosk styles reach them.
  useEffect(() => {
    document.documentElement.classList.add('pp-kiosk-mode');
    return () => document.documentElement.classList.remove('pp-kiosk-mode');
  }, []);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <InertLinks.Provider value={true}>
      <div className="pp-kiosk-shell">
        <header className="pp-kiosk-bar">
          <div className="pp-kiosk-brand">
            <img className="pp-kiosk-logo" src={applicationImageUrl('logo')} alt={root.config.radiology.name} />
            {clinic !== '' && <span className="pp-kiosk-clinic">{clinic}</span>}
          </div>
          <KioskLanguage />
        </header>
        <main id={MAIN_CONTENT_ID} ref={mainRef} tabIndex={-1} className="pp-kiosk-main">
          <Outlet />
        </main>
        <footer className="pp-kiosk-bottom">
          <KioskKeyboard />
          <div className="pp-kiosk-help">
            <p>{t('kiosk.shell.help')}</p>
            <Button
              variant="secondary"
              className="pp-kiosk-start-again"
              onClick={() => void endKioskSession({ win: window, logout: () => root.api.patientAccess.logout() })}
            >
              {t('kiosk.shell.startAgain')}
            </Button>
          </div>
        </footer>
      </div>
    </InertLinks.Provider>
  );
});
