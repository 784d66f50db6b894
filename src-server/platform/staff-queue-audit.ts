import type { AuditEntry } from '../db/audit-log';

/**
 * The staff work queues (callback requests, booking requests) are read and worked alike, and
 * audited alike: reading a queue names who read it and how many rows, never whose; marking a row
 * done keeps the staff member's note on the row and audits only whether there was one.
 */

/** A done mark's note as the row keeps it: a missing or empty note is none. */
export function queueNote(note: string | undefined): string | null {
  return note === undefined || note === '' ? null : note;
}

/** The audit row of reading a queue: who read it, how many rows were listed and how many are open. */
export function queueListedEntry(actor: string, action: string, counts: { listed: number; open: number }, now: Date): AuditEntry {
  return { actor, action, subjectType: null, subjectId: null, details: counts, now };
}

/** The audit row of marking a queue's row done: who, which row (its id, never a booking key), and whether a note was left. */
export function queueMarkedEntry(
  actor: string,
  action: string,
  row: { type: string; id: string },
  note: string | null,
  now: Date,
): AuditEntry {
  return { actor, action, subjectType: row.type, subjectId: row.id, details: { note: note !== null }, now };
}
