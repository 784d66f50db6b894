import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../components/button';
import { Page } from '../../components/page';
import { useKioskTexts } from '../../i18n/kiosk-texts';
import { usePortalHref } from '../../shell/embedded';
import { LoadingOverlay } from '../../shell/loading-overlay';
import { useStores } from '../../stores/use-stores';
import { kioskCheckInPath } from './kiosk-paths';
import { KioskCodeIdentity } from './kiosk-code-identity';
import { KioskEnroll } from './kiosk-enroll';
import { goKioskHome } from './go-kiosk-home';
import { kioskCheckInStoreOf, kioskDeviceStoreOf } from './kiosk-stores';
import { KioskScanEntry } from './kiosk-scan-entry';
import { KioskWelcome } from './kiosk-welcome';
import './kiosk-check-in.css';

/**
 * The kiosk home, /kiosk?kioskMode=true (docs/rules/kiosk.md): asks the server who this kiosk is;
 * not enrolled (or revoked) shows the kiosk identity screen, enrolled the welcome and the
 * check-in form. One booking found goes on to /check-in for the one-time code.
 */
export const KioskPage = observer(function KioskPage() {
  const root = useStores();
  const device = root.featureStore(kioskDeviceStoreOf);
  const checkIn = root.featureStore(kioskCheckInStoreOf);
  const textsReady = useKioskTexts(root.i18n.i18n, root.i18n.locale);
  const navigate = useNavigate();
  const href = usePortalHref();
  const { t } = useTranslation();
  const startCheckIn = () => checkIn.step !== null && navigate(href(kioskCheckInPath(checkIn.step)));

  useEffect(() => {
    void device.load();
  }, [device]);

  // Back at the home with a patient's check-in under way (the browser's back button): end it, so
  // the next person never sees or continues it.
  useEffect(() => {
    if (checkIn.step !== null) goKioskHome(() => root.api.patientAccess.logout());
  }, [checkIn, root]);

  if (!textsReady) return <LoadingOverlay />;
  return (
    <Page title={t('kiosk.title')} className="pp-kiosk pp-kiosk-home-page">
      {device.screen === 'loading' && (
        <p role="status" className="pp-kiosk-status">
          <span className="pp-spinner" aria-hidden="true" /> {t('kiosk.loading')}
        </p>
      )}
      {device.screen === 'unavailable' && (
        <div className="pp-kiosk-card">
          <p role="alert" className="pp-kiosk-alert">
            {t('kiosk.unavailable')}
          </p>
          <Button block onClick={() => void device.load()}>
            {t('kiosk.retry')}
          </Button>
        </div>
      )}
      {device.screen === 'enroll' && <KioskEnroll store={device} />}
      {device.screen === 'welcome' && checkIn.scannedBookingKey === null && (
        <div className="pp-kiosk-ways">
          <KioskScanEntry store={checkIn} />
          <KioskWelcome store={checkIn} onStarted={startCheckIn} />
        </div>
      )}
      {device.screen === 'welcome' && checkIn.scannedBookingKey !== null && <KioskCodeIdentity store={checkIn} onStarted={startCheckIn} />}
    </Page>
  );
});
