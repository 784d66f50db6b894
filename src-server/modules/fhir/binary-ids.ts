/**
 * The ids of Binary: `attachment-<uuid>` (a document's bytes) and `report-<uuid>` (a report's
 * PDF). The prefix says which table the uuid is looked up in, so one can never be read as the other.
 */

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const BINARY_ID = new RegExp(`^(attachment|report)-(${UUID})$`);

export type BinaryKey = { kind: 'attachment' | 'report'; id: string };

export const binaryIdOfAttachment = (id: string): string => `attachment-${id}`;
export const binaryIdOfReport = (id: string): string => `report-${id}`;

export function parseBinaryId(binaryId: string): BinaryKey | null {
  const match = BINARY_ID.exec(binaryId);
  if (match === null) return null;
  return { kind: match[1] === 'report' ? 'report' : 'attachment', id: match[2] ?? '' };
}
