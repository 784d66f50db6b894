/** How the shell lays itself out (docs/rules/shell.md#device-and-zoom). */
export type Device = 'desktop' | 'mobile' | 'tablet' | 'kiosk';

export interface DeviceSignals {
  userAgent: string;
  /** Viewport width in CSS pixels. */
  width: number;
  maxTouchPoints: number;
  kiosk: boolean;
}

/** Below this viewport width the phone layout is used whatever the user agent says. */
export const MOBILE_MAX_WIDTH = 767;
/** Touch screens up to this width get the tablet layout. */
export const TABLET_MAX_WIDTH = 1279;
/** Screens up to this height are zoomed to 75%. */
export const SMALL_SCREEN_MAX_HEIGHT = 768;
export const SMALL_SCREEN_ZOOM = 0.75;

const PHONE_UA = /iPhone|iPod|Windows Phone|Android.+Mobile|\bMobi/i;
// Checked before PHONE_UA: an iPad's user agent also contains "Mobile/…".
const TABLET_UA = /iPad|Tablet|Android(?!.*Mobile)|Silk|Kindle/i;

/**
 * Decides the layout. Kiosk wins (it is a mode, not a screen size); a narrow viewport is
 * the phone layout whatever the device; then a tablet user agent (or an iPad that reports
 * itself as a Mac, with touch points > 1) is a tablet, a phone user agent is mobile (a
 * phone in landscape is wider than 767 px), and a touch screen of tablet width is a tablet.
 */
export function detectDevice(signals: DeviceSignals): Device {
  if (signals.kiosk) return 'kiosk';
  if (signals.width <= MOBILE_MAX_WIDTH) return 'mobile';
  const ua = signals.userAgent;
  const iPadAsMac = /Macintosh/i.test(ua) && signals.maxTouchPoints > 1;
  if (TABLET_UA.test(ua) || iPadAsMac) return 'tablet';
  if (PHONE_UA.test(ua)) return 'mobile';
  if (signals.maxTouchPoints > 0 && signals.width <= TABLET_MAX_WIDTH) return 'tablet';
  return 'desktop';
}

/**
 * Screens up to 768 px high are zoomed to 75% (docs/rules/shell.md#device-and-zoom). Phones are excluded on purpose:
 * every phone is under 768 px high in landscape, and 75% of phone-sized text falls below a
 * readable size and breaks WCAG 1.4.4 (resize text) and 1.4.10 (reflow). The rule is meant
 * for short laptop and kiosk screens, which is where it applies.
 */
export function shouldZoom(device: Device, viewportHeight: number): boolean {
  return device !== 'mobile' && viewportHeight <= SMALL_SCREEN_MAX_HEIGHT;
}
