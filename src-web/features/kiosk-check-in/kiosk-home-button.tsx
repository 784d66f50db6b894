import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button';
import { useStores } from '../../stores/use-stores';
import { endKioskSession } from '../kiosk-idle/public';

/**
 * Home: signs the patient out, wipes what the browser holds of them (the kiosk's own cookies
 * stay) and loads the kiosk home as a new document, as the idle cycle does.
 */
export function goKioskHome(logout: () => Promise<void>): void {
  void endKioskSession({ win: window, logout });
}

export function KioskHomeButton() {
  const { t } = useTranslation();
  const root = useStores();
  return (
    <Button variant="secondary" className="pp-kiosk-home" onClick={() => goKioskHome(() => root.api.patientAccess.logout())}>
      {t('action.home')}
    </Button>
  );
}
