import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UPLOAD_CONTENT_TYPES } from '@contract/api/attachments';
import type { Database } from '../../db/connection';
import type { FileStorage } from '../../platform/storage';
import { prepareUpload } from './content';
import { displayFileName } from './file-names';
import { DEFAULT_CONTENT_LIMITS, type AttachmentsService } from './service';

/**
 * Earlier versions kept booking-request referrals in the database (booking_request_referral,
 * 0005_self_service). At start each one moves into file storage as a REFERRAL attachment of its
 * booking request, keeping its id so old download links still find it: checked and re-encoded
 * like an upload, stored, then in one transaction the attachment row is written and the old row
 * deleted. A crash in between leaves the old row (moved again next start) and an orphan file
 * (swept). A referral the checks refuse stays where it is, counted in the log: nothing is lost.
 */

const BATCH = 20;

export async function importLegacyReferrals(
  db: Database,
  service: AttachmentsService,
  storage: FileStorage,
  workDir: string,
): Promise<{ moved: number; refused: number }> {
  const { repository } = service;
  const referral = await repository.documentTypeByCode('REFERRAL');
  const counts = { moved: 0, refused: 0 };
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const refusedIds: string[] = [];
  for (;;) {
    const rows = await repository.legacyReferrals(refusedIds, BATCH);
    if (rows.length === 0) return counts;
    for (const row of rows) {
      const input = join(workDir, `.legacy-${randomBytes(12).toString('base64url')}`);
      await writeFile(input, row.content, { mode: 0o600 });
      let preparedPath: string | null = null;
      try {
        const prepared = await prepareUpload(input, workDir, { allowed: UPLOAD_CONTENT_TYPES, ...DEFAULT_CONTENT_LIMITS });
        if (!prepared.ok) {
          refusedIds.push(row.id);
          counts.refused += 1;
          continue;
        }
        preparedPath = prepared.path;
        const stored = await storage.putFile(prepared.path, prepared.contentType);
        try {
          await db.transaction(async (tx) => {
            const owner = { type: 'BOOKING_REQUEST' as const, key: row.booking_key };
            await repository.insert(
              {
                id: row.id,
                owner,
                documentTypeId: referral?.id ?? null,
                storageKey: stored.key,
                fileName: displayFileName(row.file_name, prepared.contentType),
                contentType: prepared.contentType,
                size: prepared.size,
                sha256: prepared.sha256,
                width: prepared.width,
                height: prepared.height,
                scanStatus: 'CLEAN',
                referralDate: null,
                referringDoctor: null,
                referralWarning: null,
                now: new Date(row.created_at),
              },
              tx,
            );
            await repository.deleteLegacyReferral(row.id, tx);
            await repository.audit(
              {
                actor: 'system',
                action: 'attachment.moved_to_storage',
                subjectId: row.id,
                details: { contentType: prepared.contentType },
                now: new Date(),
              },
              tx,
            );
          });
          counts.moved += 1;
        } catch (error) {
          await storage.delete(stored.key).catch(() => undefined);
          throw error;
        }
      } finally {
        await rm(input, { force: true });
        if (preparedPath !== null) await rm(preparedPath, { force: true });
      }
    }
  }
}
