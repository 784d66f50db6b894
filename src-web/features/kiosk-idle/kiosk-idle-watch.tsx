import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useStores } from '../../stores/use-stores';
import { InactivityDialog } from './inactivity-dialog';
import { kioskIdleStore } from './kiosk-idle-store';

/** Idle watching for as long as it is mounted (kiosk mode), and the inactivity dialog when it counts down. */
export const KioskIdleWatch = observer(function KioskIdleWatch() {
  const store = useStores().featureStore(kioskIdleStore);

  useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);

  return store.countingDown ? <InactivityDialog store={store} /> : null;
});
