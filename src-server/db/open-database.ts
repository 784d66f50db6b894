import { redactDatabaseUrl, type Config } from '../config';
import { openPostgres, type Database } from './connection';
import { DataDirCorruptError } from './data-dir-errors';
import { openPgliteDataDir, PGLITE_DIR_NAME } from './pglite-data-dir';
import { discardEarlyPgliteThread, openPgliteDataDirInThread } from './pglite-thread/client';

export { DataDirCorruptError, openPgliteDataDir, PGLITE_DIR_NAME };

/**
 * The database the configuration asks for: PostgreSQL at DATABASE_URL, else the embedded PGlite,
 * opened by openPgliteDataDir in a thread of its own (db/pglite-thread/client.ts).
 * Throws DatabaseUnreachableError, DataDirLockedError or DataDirCorruptError with a one-line message.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'pgliteSharedBuffersMb'>,
  onConnectionLost?: (error: Error) => void,
): Promise<Database> {
  if (config.databaseUrl !== null) {
    await discardEarlyPgliteThread();
    return openPostgres(config.databaseUrl, redactDatabaseUrl(config.databaseUrl), onConnectionLost ? { onConnectionLost } : {});
  }
  return openPgliteDataDirInThread(config.dataDir, config.pgliteSharedBuffersMb, onConnectionLost);
}
