// What other areas may use of the kiosk shell: the layout the router shows in kiosk mode.
export { KioskLayout } from './kiosk-layout';
