import { observer } from 'mobx-react-lite';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useKioskScanTexts } from '../../i18n/kiosk-scan-texts';
import { useStores } from '../../stores/use-stores';
import { LazyCameraScanner, useKeyboardWedge } from '../kiosk-scan/public';
import { KioskCard } from './kiosk-card';
import type { KioskCheckInStore } from './kiosk-check-in-store';

/**
 * The kiosk home's other way in (docs/rules/kiosk.md#identify-by-scanning): "Scan your booking
 * code" opens the camera; a USB scanner that types like a keyboard works at any time while this
 * card is on screen. Whatever is scanned goes to the store, which reads the booking key out of it
 * or says the code is not a booking code.
 */
export const KioskScanEntry = observer(function KioskScanEntry({ store }: { store: KioskCheckInStore }) {
  const root = useStores();
  const ready = useKioskScanTexts(root.i18n.i18n, root.i18n.locale);
  const { t } = useTranslation();
  const [cameraOpen, setCameraOpen] = useState(false);
  useKeyboardWedge((text) => {
    setCameraOpen(false);
    store.scannedText(text);
  }, !store.looking);

  if (!ready) return null;
  return (
    <KioskCard heading={t('kioskScan.entry.heading')} intro={t('kioskScan.entry.intro')}>
      {store.scanProblem === 'foreign' && (
        <p role="alert" className="pp-kiosk-alert">
          {t('kioskScan.foreign')}
        </p>
      )}
      {cameraOpen ? (
        <Suspense fallback={<p role="status">{t('kioskScan.camera.starting')}</p>}>
          <LazyCameraScanner
            onCode={(text) => {
              setCameraOpen(false);
              store.scannedText(text);
            }}
            onCancel={() => setCameraOpen(false)}
          />
        </Suspense>
      ) : (
        <Button
          block
          className="pp-kiosk-big"
          onClick={() => {
            store.dismissScanProblem();
            setCameraOpen(true);
          }}
        >
          {t('kioskScan.entry.scan')}
        </Button>
      )}
      <p className="pp-kiosk-hint">{t('kioskScan.entry.scanner')}</p>
    </KioskCard>
  );
});
