import type { Input, KioskWebContents } from './electron-surface';

/** Why a key combination is swallowed before the page sees it (docs/rules/kiosk.md#input). */
export type BlockedInputReason = 'reload' | 'devtools' | 'zoom' | 'print' | 'close' | 'history';

type KeyInput = Pick<Input, 'key' | 'code' | 'control' | 'meta' | 'alt' | 'shift'>;

/** Keys that zoom with Ctrl/Cmd held: main keyboard (with or without Shift) and the numeric keypad. */
const ZOOM_KEYS = new Set(['+', '=', '-', '_', '0']);
const ZOOM_CODES = new Set(['Equal', 'Minus', 'Digit0', 'NumpadAdd', 'NumpadSubtract', 'Numpad0']);
/** Ctrl/Cmd + Shift + I (inspector), J (console), C (element picker) open devtools in Chromium. */
const DEVTOOLS_LETTERS = new Set(['i', 'j', 'c']);

/**
 * Which reason, if any, makes the kiosk swallow this key press. Ctrl and Cmd are treated alike on
 * every platform: the kiosk hardware may come with either keyboard, and none of these
 * combinations has a use in the portal.
 *
 * @param input - Electron's `before-input-event` input.
 */
export function blockedInputReason(input: KeyInput): BlockedInputReason | null {
  const key = input.key.toLowerCase();
  const command = input.control || input.meta;

  if (key === 'f5' || key === 'browserrefresh' || (command && key === 'r')) return 'reload';
  if (key === 'f12' || (command && (input.shift || input.alt) && DEVTOOLS_LETTERS.has(key))) return 'devtools';
  // By key, and by physical key for layouts where Ctrl+'+' reports another character; not with
  // Alt held, because AltGr (Ctrl+Alt on Windows) + those keys types characters such as '}'.
  if (command && (ZOOM_KEYS.has(key) || (!input.alt && ZOOM_CODES.has(input.code)))) return 'zoom';
  if (command && key === 'p') return 'print';
  if ((input.alt && key === 'f4') || (command && (key === 'w' || key === 'q' || key === 'f4'))) return 'close';
  if (
    key === 'browserback' ||
    key === 'browserforward' ||
    (input.alt && (key === 'arrowleft' || key === 'arrowright')) ||
    (input.meta && (key === '[' || key === ']' || key === 'arrowleft' || key === 'arrowright'))
  ) {
    return 'history';
  }
  return null;
}

/** True when the kiosk swallows this key press (see {@link blockedInputReason}). */
export function shouldBlockInput(input: KeyInput): boolean {
  return blockedInputReason(input) !== null;
}

/** Registers the key filter on a window's webContents; blocked keys never reach the page or Chromium. */
export function installInputPolicy(contents: KioskWebContents): void {
  contents.on('before-input-event', (event, input) => {
    if (shouldBlockInput(input)) event.preventDefault();
  });
}
