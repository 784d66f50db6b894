import { createAppointmentsApi } from '../../api/appointments-api';
import { createCheckInApi } from '../../api/check-in-api';
import { createKioskApi } from './kiosk-api';
import { createQuestionnairesApi } from '../../api/questionnaires-api';
import { localDate } from '../../platform/dates';
import { bridgeIdentity } from '../../platform/kiosk-bridge-client';
import type { FeatureStoreContext } from '../../stores/root-store';
import { KioskCheckInStore } from './kiosk-check-in-store';
import { KioskDeviceStore } from './kiosk-device-store';

// The kiosk pages' stores, built once per visit from the app's one API client (RootStore.featureStore).

export const kioskApiOf = ({ client }: FeatureStoreContext) => createKioskApi(client);

export const kioskDeviceStoreOf = (context: FeatureStoreContext) =>
  new KioskDeviceStore(context.root.featureStore(kioskApiOf), context.window.document, () => bridgeIdentity(context.window));

export const kioskCheckInStoreOf = ({ root, client }: FeatureStoreContext) =>
  new KioskCheckInStore({
    kiosk: root.featureStore(kioskApiOf),
    patientAccess: root.api.patientAccess,
    appointments: createAppointmentsApi(client),
    checkIn: createCheckInApi(client),
    questionnaires: createQuestionnairesApi(client),
    today: () => localDate(new Date()),
    resendSeconds: () => root.config.app.otpResendSeconds,
    giveFeedback: () => root.config.app.giveFeedback,
    onKioskRevoked: () => root.featureStore(kioskDeviceStoreOf).markRevoked(),
  });
