import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/connection';
import { sweepOrphans, type FileStorage } from '../../platform/storage';
import { importLegacyReferrals } from './legacy-referrals';
import type { AttachmentsService } from './service';

/**
 * The attachments' background work, started when the server is ready
 * (docs/rules/attachments.md#housekeeping):
 * - once at start: referrals kept in the database by earlier versions move into file storage; when
 *   this server alone owns the files (exclusiveStorage: PGlite under the DATA_DIR lock, folder
 *   storage), a crash's leftovers go at once: every work file, and every stored file no row names;
 * - every ORPHAN_SWEEP_MS: stored files no row names, older than ORPHAN_MIN_AGE_MS (a file whose
 *   row is being written right now is younger), are deleted, with leftover work files;
 * - every RESCAN_MS while a virus scanner is configured: quarantined files are scanned again.
 */

export const ORPHAN_SWEEP_MS = 60 * 60 * 1000;
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
export const RESCAN_MS = 60 * 1000;

/** Deletes receive/re-encode leftovers of a crashed server older than minAgeMs. */
export async function removeStaleWork(workDir: string, minAgeMs: number, now: Date): Promise<number> {
  let removed = 0;
  const names = await readdir(workDir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(workDir, name);
    const info = await stat(path).catch(() => null);
    if (info === null || now.getTime() - info.mtimeMs < minAgeMs) continue;
    await rm(path, { force: true, recursive: true });
    removed += 1;
  }
  return removed;
}

export async function sweepAttachmentOrphans(
  service: AttachmentsService,
  storage: FileStorage,
  workDir: string,
  now: Date,
  minAgeMs = ORPHAN_MIN_AGE_MS,
): Promise<{ orphans: number; work: number }> {
  const swept = await sweepOrphans(storage, (keys) => service.repository.referencedKeys(keys), { olderThanMs: minAgeMs, now });
  await storage.removeStaleTemporaries(minAgeMs);
  const work = await removeStaleWork(workDir, minAgeMs, now);
  return { orphans: swept.deleted, work };
}

export function startAttachmentJobs(
  app: FastifyInstance,
  options: {
    db: Database;
    service: AttachmentsService;
    storage: FileStorage;
    workDir: string;
    /** No other process writes these files or work files (nothing is in flight before the server listens). */
    exclusiveStorage: boolean;
    now?: () => Date;
  },
): void {
  const now = options.now ?? (() => new Date());
  const warn = (what: string) => (error: unknown) => app.log.warn({ err: error }, `[attachments] ${what} failed`);
  app.addHook('onReady', async () => {
    if (!(await options.service.repository.schemaReady().catch(() => false))) return;
    await importLegacyReferrals(options.db, options.service, options.storage, options.workDir).catch(
      warn('moving stored referrals into file storage'),
    );
    if (options.exclusiveStorage) {
      await sweepAttachmentOrphans(options.service, options.storage, options.workDir, now(), 0).catch(warn('start-up sweep'));
    }
  });
  const schemaReady = () => options.service.repository.schemaReady();
  app.jobs.every(
    ORPHAN_SWEEP_MS,
    'attachments.orphans',
    () => sweepAttachmentOrphans(options.service, options.storage, options.workDir, now()),
    {
      onlyIf: schemaReady,
    },
  );
  app.jobs.every(RESCAN_MS, 'attachments.quarantine-rescan', () => options.service.rescanQuarantined(), { onlyIf: schemaReady });
}
