import { startPgliteThreadEarly } from './client';

/**
 * Loaded by the built server's entry (dist/server/main.js, scripts/build-server.mjs) before the
 * server's own code. The embedded database's thread starts at once and loads PGlite; then the
 * configuration is read with the server's own parser (its code is then loaded already when main.ts
 * parses it again) and the thread opens DATA_DIR while the rest of the server's code loads.
 * With DATABASE_URL set no thread is started; a configuration with problems is main.ts's to report.
 */
if ((process.env.DATABASE_URL ?? '').trim() === '') {
  const thread = startPgliteThreadEarly();
  try {
    const { loadConfigContext, parseConfig } = await import('../../config');
    const parsed = parseConfig(process.env, loadConfigContext(process.cwd()));
    if (parsed.ok && parsed.config.databaseUrl === null) thread.openEarly(parsed.config.dataDir, parsed.config.pgliteSharedBuffersMb);
  } catch {
    // main.ts reads the configuration again and reports what is wrong; the database opens when it asks.
  }
}
