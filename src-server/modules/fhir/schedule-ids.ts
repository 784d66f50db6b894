/**
 * The ids of the resources the portal has no row for: a Schedule is an exam at a clinic, a Slot a
 * free start time in one. Each id spells its parts in base 36 (a uuid in at most 25 characters), so
 * it fits FHIR's 64 characters and reads back without a lookup:
 *   Schedule  <clinic>-<exam>
 *   Slot      <clinic>-<exam>-<start in minutes since 1970>
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE36 = /^[0-9a-z]{1,25}$/;
const MAX_UUID = (1n << 128n) - 1n;

function uuidToBase36(uuid: string): string {
  return BigInt(`0x${uuid.replace(/-/g, '')}`).toString(36);
}

function base36ToUuid(text: string): string | null {
  if (!BASE36.test(text)) return null;
  let value = 0n;
  for (const digit of text) value = value * 36n + BigInt(parseInt(digit, 36));
  if (value > MAX_UUID) return null;
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface ScheduleKey {
  clinicId: string;
  examId: string;
}

export function scheduleId(key: ScheduleKey): string {
  if (!UUID.test(key.clinicId) || !UUID.test(key.examId)) throw new Error('[fhir] a schedule is made of two uuids');
  return `${uuidToBase36(key.clinicId)}-${uuidToBase36(key.examId)}`;
}

export function parseScheduleId(id: string): ScheduleKey | null {
  const [clinic = '', exam = '', ...rest] = id.split('-');
  if (rest.length > 0) return null;
  const clinicId = base36ToUuid(clinic);
  const examId = base36ToUuid(exam);
  return clinicId === null || examId === null ? null : { clinicId, examId };
}

const MINUTE = 60_000;

export function slotId(key: ScheduleKey, start: number): string {
  return `${scheduleId(key)}-${Math.floor(start / MINUTE).toString(36)}`;
}

export function parseSlotId(id: string): (ScheduleKey & { start: number }) | null {
  const at = id.lastIndexOf('-');
  const minutes = id.slice(at + 1);
  const key = at === -1 ? null : parseScheduleId(id.slice(0, at));
  if (key === null || !/^[0-9a-z]{1,9}$/.test(minutes)) return null;
  return { ...key, start: parseInt(minutes, 36) * MINUTE };
}
