// What other areas may use of kiosk check-in: the kiosk's own identity (the shell shows its clinic).
export { kioskDeviceStoreOf } from './kiosk-stores';
