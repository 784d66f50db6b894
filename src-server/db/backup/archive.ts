import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as tar from 'tar';
import { fsyncPath } from '../../platform/storage/folder';
import { BackupInvalidError, FILES_FOLDER, MANIFEST_NAME } from './manifest';

/**
 * The archive is a plain POSIX tar (readable with `tar -tvf`), uncompressed: the database part is
 * compressed already and stored files (PDFs, photos) do not shrink. Layout: docs/operations.md#the-archive.
 */

/**
 * Packs the staging folder into target: written under a temporary name, made durable, then renamed,
 * so target is either a whole archive or absent.
 */
export async function writeArchive(staging: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const entries = [MANIFEST_NAME, 'database', ...(existsSync(`${staging}/${FILES_FOLDER}`) ? [FILES_FOLDER] : [])];
  try {
    // Patients' details: readable by the operator alone from the first byte.
    await tar.c({ file: partial, cwd: staging, portable: true, strict: true, mode: 0o600 }, entries);
    await fsyncPath(partial);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Unpacks archive into the empty folder staging and answers the regular files it held (relative
 * paths). Links, devices and anything outside the folder are refused; a damaged header or a
 * truncated archive throws BackupInvalidError.
 */
export async function extractArchive(archive: string, staging: string): Promise<string[]> {
  const files: string[] = [];
  const refused: string[] = [];
  await mkdir(staging, { recursive: true });
  try {
    await tar.x({
      file: archive,
      cwd: staging,
      strict: true,
      preserveOwner: false,
      filter: (path, entry) => {
        const type = 'type' in entry ? entry.type : entry.isDirectory() ? 'Directory' : 'File';
        const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
        if (type === 'Directory') return true;
        if ((type === 'File' || type === 'OldFile') && !clean.includes('..') && !clean.startsWith('/')) {
          files.push(clean);
          return true;
        }
        refused.push(clean);
        return false;
      },
    });
  } catch (error) {
    throw new BackupInvalidError(`it is not a readable archive (${error instanceof Error ? error.message : String(error)})`);
  }
  if (refused.length > 0) throw new BackupInvalidError(`it holds ${refused[0]}, which is not a plain file`);
  if (!files.includes(MANIFEST_NAME)) throw new BackupInvalidError('it has no manifest.json (not a portal backup, or truncated)');
  return files;
}
