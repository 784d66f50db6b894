import { refuse, type Parse } from './config-variable';

/** Default minutes without a word from an enrolled kiosk before the staff kiosk page calls it silent. */
export const DEFAULT_KIOSK_SILENT_MINUTES = 5;

/** KIOSK_SILENT_MINUTES (docs/rules/kiosk.md#fleet): 1 to 1440, a whole number. */
export const kioskSilentMinutes: Parse<number> = (raw) => {
  if (raw === undefined) return DEFAULT_KIOSK_SILENT_MINUTES;
  const parsed = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  return parsed >= 1 && parsed <= 1440 ? parsed : refuse(`must be a whole number of minutes from 1 to 1440, got '${raw}'`);
};
