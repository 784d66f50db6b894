import type { Readable } from 'node:stream';
import type { Queryable } from '../../db/connection';
import type { FileStorage } from '../../platform/storage';
import { createAttachmentsRepository, type Owner } from './repository';
import type { checkPdf as checkPdfNow } from './content/pdf';

/** What other modules may use of attachments (docs/rules/attachments.md). */

export { createAttachmentsService, type AttachmentsService } from './service';
export { registerAttachmentRoutes } from './routes';
export { createUploadBudget, type UploadBudget } from './upload-budget';
export type { Owner as AttachmentOwner } from './repository';
export { contentDisposition } from './file-names';

/**
 * Moves the documents uploaded under one key to another, in the caller's transaction: a
 * temporary booking key's documents to the booking made with it, or to a new temporary key after
 * a failed booking. Answers how many moved.
 */
export function moveAttachments(tx: Queryable, from: Owner, to: Owner, now: Date): Promise<number> {
  return createAttachmentsRepository(tx).moveOwner(from, to, now, tx);
}

/**
 * The documents an owner holds, by name only: what a booking's pages list as sent. Those of a
 * document type (the referral and what the exams ask for) first, then the others; each oldest
 * first, then by name (uploads in one instant keep one order). An infected file (its bytes
 * deleted) is left out. The caller has checked who may read the owner.
 */
export async function sentDocuments(q: Queryable, owner: Owner): Promise<Array<{ title: string | null; fileName: string }>> {
  const rows = await createAttachmentsRepository(q).list(owner, q);
  return rows
    .filter((row) => row.scan_status !== 'INFECTED')
    .sort(
      (a, b) =>
        Number(a.document_type_title === null) - Number(b.document_type_title === null) ||
        a.created_at.localeCompare(b.created_at) ||
        a.file_name.localeCompare(b.file_name),
    )
    .map((row) => ({ title: row.document_type_title, fileName: row.file_name }));
}

/** Deletes the rows of expired temporary keys' documents; their files become orphans the sweeper removes. */
export async function deleteTemporaryAttachments(tx: Queryable, keys: readonly string[]): Promise<number> {
  return createAttachmentsRepository(tx).deleteTemporary(keys);
}

/**
 * The PDF check by content (active content refused), for other modules that receive PDFs
 * (results). Its PDF reader (pdf-lib) loads with the first PDF, not when the server starts.
 */
export async function checkPdf(...args: Parameters<typeof checkPdfNow>): ReturnType<typeof checkPdfNow> {
  const { checkPdf: check } = await import('./content/pdf');
  return check(...args);
}

/**
 * A clean document of a booking or booking request by its id, with its bytes, for the FHIR API's
 * Binary (its caller has checked the client's scope); audited like a download. Null for a
 * temporary key's, a quarantined or infected one, or an id that names none.
 */
export async function openServableAttachment(
  q: Queryable,
  storage: FileStorage,
  id: string,
  audit: { actor: string; now: Date },
): Promise<{ contentType: string; size: number; stream: Readable } | null> {
  const repository = createAttachmentsRepository(q);
  const row = await repository.servable(id);
  const file = row === null ? null : await storage.open(row.storage_key);
  if (row === null || file === null) return null;
  await repository.audit({ ...audit, action: 'attachment.downloaded', subjectId: id, details: { owner: row.owner_type, via: 'fhir' } });
  return { contentType: row.content_type, size: file.size, stream: file.stream };
}
export { referralWarning } from './referral-date';
