// What the app composes of the kiosk idle cycle: the watch it mounts in kiosk mode.
export { KioskIdle } from './kiosk-idle';
// Ending a kiosk patient's session the same way (the kiosk check-in pages' Home and their end).
export { endKioskSession } from './end-kiosk-session';
