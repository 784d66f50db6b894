import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useKioskScanTexts } from '../../i18n/kiosk-scan-texts';
import { useStores } from '../../stores/use-stores';
import type { KioskCheckInStore } from './kiosk-check-in-store';
import { KioskCard, KioskForm } from './kiosk-card';
import { DateOfBirthFields } from './kiosk-date-of-birth';
import { IdentityProblemAlert } from './kiosk-welcome';

/**
 * After a booking code was scanned (docs/rules/kiosk.md#identify-by-scanning): the patient
 * confirms with the date of birth, then goes on as after the name form (the one-time code). The
 * booking key is never shown: a code picked up by someone else tells them nothing.
 */
export const KioskCodeIdentity = observer(function KioskCodeIdentity({
  store,
  onStarted,
}: {
  store: KioskCheckInStore;
  onStarted: () => void;
}) {
  const root = useStores();
  const ready = useKioskScanTexts(root.i18n.i18n, root.i18n.locale);
  const { t } = useTranslation();
  if (!ready) return null;
  const submit = async () => {
    if (await store.submitCodeIdentity()) onStarted();
  };
  return (
    <KioskCard heading={t('kioskScan.identity.heading')} intro={t('kioskScan.identity.intro')}>
      <KioskForm onSubmit={submit}>
        <DateOfBirthFields store={store} />
        <IdentityProblemAlert store={store} />
        <Button type="submit" block disabled={store.looking}>
          {store.looking ? t('kiosk.welcome.looking') : t('kioskScan.identity.submit')}
        </Button>
      </KioskForm>
      <Button variant="secondary" block disabled={store.looking} onClick={() => store.forgetScannedCode()}>
        {t('kioskScan.identity.startAgain')}
      </Button>
    </KioskCard>
  );
});
