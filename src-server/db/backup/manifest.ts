import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * manifest.json, the first entry of every backup archive (docs/operations.md#the-archive): what the
 * archive holds and the sha256 of every other entry, checked before a restore changes anything.
 */

export const MANIFEST_NAME = 'manifest.json';
export const FORMAT = 'radiology-portal-backup';
export const FORMAT_VERSION = 1;

/** The database part's name inside the archive, by engine. */
export const DATABASE_PART = { pglite: 'database/pglite-datadir.tar.gz', postgres: 'database/postgres.pgdump' } as const;
export const FILES_FOLDER = 'files';

const PartSchema = z.object({
  path: z.string().regex(/^(database\/[a-z0-9.-]+|files\/[A-Za-z0-9_-]{22,64})$/),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.literal(FORMAT_VERSION),
  engine: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  /** The last migration applied to the database when it was backed up. */
  schemaVersion: z.string().nullable(),
  /** 'folder': the stored files are in the archive; 's3': the bucket is backed up by the provider's S3 tooling. */
  storage: z.enum(['folder', 's3']),
  fileCount: z.number().int().nonnegative(),
  /** The server version that wrote it, for the reader's information. */
  writtenBy: z.string(),
  parts: z.array(PartSchema),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type Engine = Manifest['engine'];
export type Part = Manifest['parts'][number];

export class BackupInvalidError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupInvalidError';
  }
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A part's entry for the manifest: its size and digest as it lies in the staging folder. */
export async function describePart(root: string, path: string): Promise<Part> {
  const absolute = join(root, path);
  return { path, bytes: (await stat(absolute)).size, sha256: await sha256Of(absolute) };
}

export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupInvalidError('its manifest.json is not readable JSON');
  }
  const format = typeof value === 'object' && value !== null && 'format' in value ? value.format : null;
  if (format !== FORMAT) throw new BackupInvalidError('it is not a portal backup (manifest.json names another format)');
  const parsed = ManifestSchema.safeParse(value);
  if (!parsed.success) {
    const version = 'formatVersion' in (value as object) ? String((value as { formatVersion: unknown }).formatVersion) : '?';
    throw new BackupInvalidError(`its manifest (format version ${version}) is not one this portal reads`);
  }
  return parsed.data;
}

/**
 * Checks that the extracted entries are exactly the manifest's parts, each with its size and
 * sha256. Throws BackupInvalidError naming the first difference.
 */
export async function verifyParts(root: string, manifest: Manifest, extracted: readonly string[]): Promise<void> {
  const expected = new Set(manifest.parts.map((part) => part.path));
  const unexpected = extracted.filter((path) => !expected.has(path));
  if (unexpected.length > 0) throw new BackupInvalidError(`it holds ${unexpected[0]}, which its manifest does not list`);
  const present = new Set(extracted);
  for (const part of manifest.parts) {
    if (!present.has(part.path)) throw new BackupInvalidError(`${part.path} is missing (the file is truncated or incomplete)`);
    const actual = await describePart(root, part.path);
    if (actual.bytes !== part.bytes || actual.sha256 !== part.sha256) {
      throw new BackupInvalidError(`${part.path} does not match its sha256 in the manifest (the file is damaged)`);
    }
  }
  const databaseParts = manifest.parts.filter((part) => part.path.startsWith('database/'));
  if (databaseParts.length !== 1 || databaseParts[0]?.path !== DATABASE_PART[manifest.engine]) {
    throw new BackupInvalidError(`it does not hold the ${manifest.engine} database part its manifest announces`);
  }
  const files = manifest.parts.filter((part) => part.path.startsWith(`${FILES_FOLDER}/`)).length;
  if (files !== manifest.fileCount) throw new BackupInvalidError(`its manifest counts ${manifest.fileCount} files but lists ${files}`);
}
