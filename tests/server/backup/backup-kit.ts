import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import type { BackupConfig } from '../../../src-server/db/backup/backup';
import { openPostgres, type Database } from '../../../src-server/db/connection';
import { migrate, MIGRATIONS_DIR, migrationVersions } from '../../../src-server/db/migrate';
import { openPgliteDataDir } from '../../../src-server/db/open-database';
import { seedDemoProvider } from '../../../src-server/db/seed/seed';
import { createTestClock } from '../../../src-server/platform/clock';
import { CLIENT_HEADERS } from '../modules/appointments/self-service-kit';
import { MINIMAL_PDF, multipart, send, temporaryBase } from '../modules/attachments/attachments-kit';
import { answerScreening, book, patient, slotsOn } from '../modules/booking/booking-test-kit';
import { buildTestServer, testConfig } from '../helpers/build-server';
import { createPostgresDatabase, dropPostgresDatabase, postgresUrlFor, SEED_NOW, type Backend } from '../helpers/database';

/**
 * A place a portal keeps its data, as the server configures it: a DATA_DIR of its own and, on
 * PostgreSQL, a database of its own (created here, dropped by remove()).
 */
export interface Place {
  config: BackupConfig;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

export async function newPlace(backend: Backend): Promise<Place> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-backup-test-'));
  const database = backend === 'postgres' ? await createPostgresDatabase() : null;
  const databaseUrl = database === null ? null : postgresUrlFor(database);
  return {
    config: { dataDir, databaseUrl, s3: null },
    open: () => (databaseUrl === null ? openPgliteDataDir(dataDir) : openPostgres(databaseUrl, 'test', { max: 2 })),
    async remove() {
      rmSync(dataDir, { recursive: true, force: true });
      if (database !== null) await dropPostgresDatabase(database);
    },
  };
}

/** The migrations directory without its last files: the schema of an older release. */
export function olderMigrations(drop: number): { dir: string; missing: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-older-migrations-'));
  const versions = migrationVersions();
  const kept = versions.slice(0, versions.length - drop);
  for (const version of kept) cpSync(join(MIGRATIONS_DIR, `${version}.sql`), join(dir, `${version}.sql`));
  return { dir, missing: versions.slice(kept.length) };
}

/** Every appointment row as JSON text, by booking key: what "the same details" compares. */
export async function appointmentsByKey(db: Database): Promise<Map<string, string>> {
  const rows = await db.query<{ booking_key: string; row: string }>(
    'select booking_key, to_jsonb(a)::text as row from appointment a order by booking_key',
  );
  return new Map(rows.map((row) => [row.booking_key, row.row]));
}

export async function attachmentKeys(db: Database): Promise<string[]> {
  const rows = await db.query<{ storage_key: string }>('select storage_key from attachment order by storage_key');
  return rows.map((row) => row.storage_key);
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Every file under folder with its size and digest: a folder that "changed nothing" answers the same. */
export function fingerprint(folder: string): Record<string, string> {
  if (!existsSync(folder)) return {};
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(folder, path)] = `${statSync(path).size}:${sha256(readFileSync(path))}`;
    }
  };
  walk(folder);
  return out;
}

/**
 * Migrates and seeds the place's database, then books through the real API as patients do:
 * several appointments, one of them with a referral uploaded while booking. Answers the booking keys.
 */
export async function bookThroughTheApi(place: Place, count: number): Promise<string[]> {
  const db = await place.open();
  const clock = createTestClock(SEED_NOW);
  try {
    await migrate(db);
    await seedDemoProvider(db, { clock });
    const server = await buildTestServer({ db, clock, config: testConfig({ DATA_DIR: place.config.dataDir }) });
    try {
      const { app } = server;
      const keys: string[] = [];
      for (let index = 0; index < count; index += 1) {
        // Asked again each time: a 30-minute exam takes the next slots of the 15-minute grid too.
        const [slot] = await slotsOn(app, 'mri-knee', 'parramatta', '2026-03-24');
        if (slot === undefined) throw new Error('no free slot left on 2026-03-24');
        const created = await app.inject({ method: 'POST', url: '/api/questionnaires/booking-keys', headers: CLIENT_HEADERS });
        const key = created.json<{ bookingKey: string }>().bookingKey;
        if (index === 0) {
          const file = { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF };
          const uploaded = await send(app, {}, 'POST', temporaryBase(key), multipart({}, file));
          expect(uploaded.statusCode, uploaded.body).toBe(201);
        }
        await answerScreening(app, key, ['mri-knee']);
        const body = { exams: ['mri-knee'], clinicSlug: 'parramatta', startsAt: slot.startsAt, questionnaireKey: key, patient: patient() };
        const booked = await book(app, body);
        expect(booked.statusCode, booked.body).toBe(201);
        keys.push(booked.json<{ bookingKey: string }>().bookingKey);
      }
      return keys;
    } finally {
      await server.close();
    }
  } finally {
    await db.close();
  }
}
