// What the app composes of the kiosk idle cycle: the watch it mounts in kiosk mode.
export { KioskIdle } from './kiosk-idle';
