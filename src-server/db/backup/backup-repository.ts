import type { Queryable } from '../connection';

/** The few statements backup and restore run on the database itself (not on any module's tables). */
export function createBackupRepository(db: Queryable) {
  // Relations are resolved when a statement is parsed, so a missing table is asked about first.
  const exists = async (table: string): Promise<boolean> => {
    const rows = await db.query<{ found: boolean }>(`select to_regclass('public.' || $1) is not null as found`, [table]);
    return rows[0]?.found === true;
  };
  return {
    /** The last applied migration, or null when the database has none (empty or not this portal's). */
    async schemaVersion(): Promise<string | null> {
      if (!(await exists('schema_migrations'))) return null;
      const rows = await db.query<{ version: string | null }>('select max(version) as version from schema_migrations');
      return rows[0]?.version ?? null;
    },
    /** The tables in schema public: what a restore with --force replaces. */
    async publicTables(): Promise<string[]> {
      const rows = await db.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
      return rows.map((row) => row.name);
    },
    /** Live and past appointments, for the summary printed after a backup or restore. */
    async appointmentCount(): Promise<number | null> {
      if (!(await exists('appointment'))) return null;
      const rows = await db.query<{ count: number }>('select count(*)::int as count from appointment');
      return rows[0]?.count ?? null;
    },
    /** Writes what is still in the write-ahead log into the data files before PGlite's folder is copied. */
    async checkpoint(): Promise<void> {
      await db.exec('checkpoint');
    },
  };
}

export type BackupRepository = ReturnType<typeof createBackupRepository>;
