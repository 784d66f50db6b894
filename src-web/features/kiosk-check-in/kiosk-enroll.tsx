import { observer } from 'mobx-react-lite';
import { Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useKioskScanTexts } from '../../i18n/kiosk-scan-texts';
import { useStores } from '../../stores/use-stores';
import { LazyCameraScanner, useKeyboardWedge } from '../kiosk-scan/public';
import { KioskCard, KioskForm } from './kiosk-card';
import type { EnrollProblem, KioskDeviceStore } from './kiosk-device-store';

function ProblemText({ problem }: { problem: EnrollProblem }) {
  const { t } = useTranslation();
  switch (problem) {
    case 'format':
      return <>{t('kiosk.enroll.format')}</>;
    case 'rejected':
      return <>{t('kiosk.enroll.rejected')}</>;
    case 'failed':
      return <>{t('kiosk.enroll.failed')}</>;
  }
}

/**
 * The kiosk identity screen (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app): the one-time enrollment code, scanned from the printed
 * enrollment sheet (camera, or a scanner that types) or typed, save disabled while it is empty;
 * inside the kiosk app only a note (the app enrolls from its provisioning file).
 */
export const KioskEnroll = observer(function KioskEnroll({ store }: { store: KioskDeviceStore }) {
  const { t } = useTranslation();
  return (
    <KioskCard heading={t('kiosk.enroll.title')}>
      {store.revoked && (
        <p role="alert" className="pp-kiosk-alert">
          {t('kiosk.enroll.revoked')}
        </p>
      )}
      {store.inApp ? <p>{t('kiosk.enroll.inApp')}</p> : <EnrollForm store={store} />}
    </KioskCard>
  );
});

/** The enrollment sheet's QR code says the code itself; a code of another shape is refused as a typed one is. */
const ScanSheet = observer(function ScanSheet({ store }: { store: KioskDeviceStore }) {
  const root = useStores();
  const ready = useKioskScanTexts(root.i18n.i18n, root.i18n.locale);
  const { t } = useTranslation();
  const [cameraOpen, setCameraOpen] = useState(false);
  const scanned = (text: string) => {
    setCameraOpen(false);
    void store.enrollScanned(text);
  };
  useKeyboardWedge(scanned, !store.enrolling);
  if (!ready) return null;
  if (!cameraOpen)
    return (
      <Button block className="pp-kiosk-big" disabled={store.enrolling} onClick={() => setCameraOpen(true)}>
        {t('kiosk.enroll.scan')}
      </Button>
    );
  return (
    <Suspense fallback={<p role="status">{t('kioskScan.camera.starting')}</p>}>
      <LazyCameraScanner purpose="enrollment" onCode={scanned} onCancel={() => setCameraOpen(false)} />
    </Suspense>
  );
});

/** The code field: a kiosk in a plain browser enrolls here with the code from the staff kiosk page. */
const EnrollForm = observer(function EnrollForm({ store }: { store: KioskDeviceStore }) {
  const { t } = useTranslation();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const problem = store.problem ?? (store.codeTouched && store.code.trim() !== '' && !store.codeValid ? 'format' : null);
  return (
    <>
      <p>{t('kiosk.enroll.intro')}</p>
      <ScanSheet store={store} />
      <p className="pp-kiosk-hint">{t('kiosk.enroll.orType')}</p>
      <KioskForm onSubmit={() => store.enroll()}>
        <label htmlFor={fieldId}>{t('kiosk.enroll.label')}</label>
        <input
          id={fieldId}
          className="pp-kiosk-input pp-kiosk-code"
          value={store.code}
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={9}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => store.setCode(event.target.value)}
          onBlur={() => store.touchCode()}
        />
        <p id={hintId} className="pp-kiosk-hint">
          {t('kiosk.enroll.hint')}
        </p>
        {problem && (
          <p id={errorId} role="alert" className="pp-kiosk-error">
            <ProblemText problem={problem} />
          </p>
        )}
        <Button type="submit" block disabled={store.code.trim() === '' || store.enrolling}>
          {store.enrolling ? t('kiosk.enroll.saving') : t('kiosk.enroll.save')}
        </Button>
      </KioskForm>
    </>
  );
});
