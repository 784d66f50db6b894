/** Small SQL pieces every repository shares. */

/** A timestamptz column read as ISO-8601 text in UTC with milliseconds (`2026-03-17T09:00:00.000Z`). */
export function isoTimestamp(column: string, alias: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${alias}`;
}

/** A LIKE pattern piece that matches `text` literally (%, _ and backslash, LIKE's escape character, escaped). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** PostgreSQL's unique_violation, exclusion_violation and deadlock_detected. */
export const UNIQUE_VIOLATION = '23505';
export const EXCLUSION_VIOLATION = '23P01';
export const DEADLOCK_DETECTED = '40P01';

/** The SQLSTATE of a database error, else null. */
export function sqlState(error: unknown): string | null {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : null;
}
