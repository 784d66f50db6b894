/**
 * The results pages' paths as plain constants, without zod: the web's route table imports them,
 * and importing them from results.ts would also pull zod into the booking home's bundle
 * (docs/web.md#budgets). results.ts re-exports them.
 */

/** Where an expired results, image or share link goes: the deny page saying so. */
export const RESULTS_EXPIRED_PATH = '/deny?resultsExpired=true';

/** An appointment's result page (/result: from the results e-mail; /result/patient: the patient portal link). */
export const resultPagePath = (bookingKey: string, patientPortal = false): string =>
  `/appointments/${encodeURIComponent(bookingKey)}/result${patientPortal ? '/patient' : ''}`;
