import { read, type Env } from './config-parsers';

/** Default minutes without a word from an enrolled kiosk before the staff kiosk page calls it silent. */
export const DEFAULT_KIOSK_SILENT_MINUTES = 5;

/** KIOSK_SILENT_MINUTES (docs/rules/kiosk.md#fleet): 1 to 1440, a whole number. */
export function parseKioskSilentMinutes(env: Env, problem: (name: string, message: string) => void): number {
  const raw = read(env, 'KIOSK_SILENT_MINUTES');
  if (raw === undefined) return DEFAULT_KIOSK_SILENT_MINUTES;
  const parsed = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(parsed >= 1 && parsed <= 1440)) {
    problem('KIOSK_SILENT_MINUTES', `must be a whole number of minutes from 1 to 1440, got '${raw}'`);
    return DEFAULT_KIOSK_SILENT_MINUTES;
  }
  return parsed;
}
