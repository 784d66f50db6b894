// What other areas may use of the kiosk keyboard: the keyboard the kiosk frame shows under a focused field.
export { KioskKeyboard } from './kiosk-keyboard';
