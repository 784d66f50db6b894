import type { UploadContentType } from '@contract/api/attachments';

const NAMES: Record<UploadContentType, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/heic': 'HEIC',
};

/** "PDF, JPEG, PNG": the allowed types as people read them (the server names them the same way). */
export function allowedTypesText(allowed: readonly UploadContentType[]): string {
  return allowed.map((type) => NAMES[type]).join(', ');
}

/** Bytes as megabytes with at most one decimal. */
export function megabytes(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 10) / 10);
}
